// Command-line flags of `npm run emulator` → EmulatorOptions (kept apart from main.ts so it can be tested).
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { parseFaultConfig, type FaultConfig, type FaultRule, type FaultTrigger } from './faults.ts';
import { DEFAULT_API_KEY, type EmulatorOptions } from './index.ts';

export const DEFAULT_PORT = 8787;

export const USAGE = `Usage: npm run emulator -- [options]
  --port N                        listen port (default ${DEFAULT_PORT}; 0 = random)
  --host ADDR                     listen address (default 127.0.0.1)
  --api-key KEY                   accepted key, repeatable; each key is its own user (default ${DEFAULT_API_KEY})
  --time-scale F                  virtual ms per real ms (default 1; 60 = a 20 min training in 20 s)
  --data-dir DIR                  persist state there (default: in memory)
  --seed S                        integer seed for ids, media tokens and fault dice
  --max-trainings N               concurrent trainings per user before 429 (default 2)
  --no-control-api                do not serve /__emulator/ routes
Fault knobs (global unless --fault-route is given; N = count of requests, P = probability 0..1):
  --fault-route "METHOD /path"    scope the request knobs below, e.g. "GET /jobs/:id" or "* /media/*"
  --latency MS
  --rate-limit N | --rate-limit-probability P   [--retry-after SECONDS (default 1)]
  --server-errors N | --server-error-probability P   [--server-error-status 5xx (default 503)]
  --drop-connections N | --drop-connection-probability P
  --truncate-bodies N | --truncate-body-probability P
  --malformed-json N | --malformed-json-probability P
  --media-cut-after BYTES         cut media responses after BYTES  [--media-cuts N]
  --job-failures N | --job-failure-probability P
  --download-failures N | --download-failure-probability P
  --faults JSON | --faults-file PATH   full fault config (see emulator/README.md); rules add to the flags above
`;

export class CliUsageError extends Error {}

const OPTIONS = {
  port: { type: 'string' },
  host: { type: 'string' },
  'api-key': { type: 'string', multiple: true },
  'time-scale': { type: 'string' },
  'data-dir': { type: 'string' },
  seed: { type: 'string' },
  'max-trainings': { type: 'string' },
  'no-control-api': { type: 'boolean' },
  'fault-route': { type: 'string' },
  latency: { type: 'string' },
  'rate-limit': { type: 'string' },
  'rate-limit-probability': { type: 'string' },
  'retry-after': { type: 'string' },
  'server-errors': { type: 'string' },
  'server-error-probability': { type: 'string' },
  'server-error-status': { type: 'string' },
  'drop-connections': { type: 'string' },
  'drop-connection-probability': { type: 'string' },
  'truncate-bodies': { type: 'string' },
  'truncate-body-probability': { type: 'string' },
  'malformed-json': { type: 'string' },
  'malformed-json-probability': { type: 'string' },
  'media-cut-after': { type: 'string' },
  'media-cuts': { type: 'string' },
  'job-failures': { type: 'string' },
  'job-failure-probability': { type: 'string' },
  'download-failures': { type: 'string' },
  'download-failure-probability': { type: 'string' },
  faults: { type: 'string' },
  'faults-file': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

function number(
  flag: string,
  raw: string | undefined,
  check: (n: number) => boolean,
  what: string,
): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(n) || !check(n))
    throw new CliUsageError(`--${flag} must be ${what}; got ${JSON.stringify(raw)}`);
  return n;
}

const int = (flag: string, raw: string | undefined, min = 0): number | undefined =>
  number(flag, raw, (n) => Number.isInteger(n) && n >= min, `an integer ≥ ${min}`);
const probability = (flag: string, raw: string | undefined): number | undefined =>
  number(flag, raw, (n) => n >= 0 && n <= 1, 'a number from 0 to 1');

function trigger(count: number | undefined, p: number | undefined): FaultTrigger | undefined {
  if (count === undefined && p === undefined) return undefined;
  return { ...(count === undefined ? {} : { count }), ...(p === undefined ? {} : { probability: p }) };
}

export type CliResult = { help: true } | { help: false; options: EmulatorOptions & { port: number } };

export function parseCli(argv: string[]): CliResult {
  let values: Record<string, string | string[] | boolean | undefined>;
  try {
    values = parseArgs({ args: argv, options: OPTIONS, strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw new CliUsageError((error as Error).message);
  }
  if (values.help) return { help: true };
  const s = (name: string): string | undefined => values[name] as string | undefined;

  const rule: FaultRule = {};
  const route = s('fault-route');
  if (route !== undefined) {
    const match = /^\s*(\S+)\s+(\/\S*)\s*$/.exec(route);
    if (!match) throw new CliUsageError('--fault-route must look like "GET /jobs/:id" (use * for any method)');
    rule.method = match[1] as string;
    rule.path = match[2] as string;
  }
  const latency = int('latency', s('latency'));
  if (latency) rule.latencyMs = latency;
  const rateLimit = trigger(
    int('rate-limit', s('rate-limit')),
    probability('rate-limit-probability', s('rate-limit-probability')),
  );
  if (rateLimit) rule.rateLimit = { ...rateLimit, retryAfterSeconds: int('retry-after', s('retry-after')) ?? 1 };
  const serverError = trigger(
    int('server-errors', s('server-errors')),
    probability('server-error-probability', s('server-error-probability')),
  );
  if (serverError)
    rule.serverError = { ...serverError, status: int('server-error-status', s('server-error-status'), 500) ?? 503 };
  const drop = trigger(
    int('drop-connections', s('drop-connections')),
    probability('drop-connection-probability', s('drop-connection-probability')),
  );
  if (drop) rule.dropConnection = drop;
  const truncate = trigger(
    int('truncate-bodies', s('truncate-bodies')),
    probability('truncate-body-probability', s('truncate-body-probability')),
  );
  if (truncate) rule.truncateBody = truncate;
  const malformed = trigger(
    int('malformed-json', s('malformed-json')),
    probability('malformed-json-probability', s('malformed-json-probability')),
  );
  if (malformed) rule.malformedJson = malformed;
  const cutBytes = int('media-cut-after', s('media-cut-after'));
  if (cutBytes !== undefined)
    rule.cutMediaAfterBytes = { bytes: cutBytes, ...trigger(int('media-cuts', s('media-cuts')), undefined) };

  let config: FaultConfig = {};
  const json = s('faults') ?? (s('faults-file') ? readFileSync(s('faults-file') as string, 'utf8') : undefined);
  if (json !== undefined) {
    try {
      config = parseFaultConfig(JSON.parse(json));
    } catch (error) {
      throw new CliUsageError(`--faults: ${(error as Error).message}`);
    }
  }
  const hasRequestKnob = Object.keys(rule).some((k) => k !== 'method' && k !== 'path');
  if (hasRequestKnob) config.rules = [rule, ...(config.rules ?? [])];
  const jobFailure = trigger(
    int('job-failures', s('job-failures')),
    probability('job-failure-probability', s('job-failure-probability')),
  );
  if (jobFailure) config.jobFailure = jobFailure;
  const downloadFailure = trigger(
    int('download-failures', s('download-failures')),
    probability('download-failure-probability', s('download-failure-probability')),
  );
  if (downloadFailure) config.downloadFailure = downloadFailure;

  const timeScale = number('time-scale', s('time-scale'), (n) => n > 0, 'a positive number');
  const seed = int('seed', s('seed'));
  const maxTrainings = int('max-trainings', s('max-trainings'), 1);
  const apiKeys = values['api-key'] as string[] | undefined;
  const host = s('host');
  const dataDir = s('data-dir');
  return {
    help: false,
    options: {
      port: int('port', s('port')) ?? DEFAULT_PORT,
      ...(host ? { host } : {}),
      apiKeys: apiKeys && apiKeys.length > 0 ? apiKeys : [DEFAULT_API_KEY],
      ...(timeScale === undefined ? {} : { timeScale }),
      ...(dataDir ? { dataDir } : {}),
      ...(seed === undefined ? {} : { seed }),
      ...(maxTrainings === undefined ? {} : { maxConcurrentTrainings: maxTrainings }),
      ...(values['no-control-api'] ? { controlApi: false } : {}),
      ...(Object.keys(config).length > 0 ? { faults: config } : {}),
    },
  };
}

// Opens the SAME core the app runs (createCore) on the app's data folder, with the CLI's
// choices for this run: the key from ATELIER_API_KEY, a base URL override, log-line
// notifications. Commands talk to it through `call`, i.e. the core's own dispatcher.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as v from 'valibot';
import type { ErrorInfo } from '../contract/errors.ts';
import type { InvokeArgs, InvokeChannel, InvokeResult } from '../contract/ipc.ts';
import { apiKeySchema } from '../contract/ipc/account.ts';
import { baseUrlProblem, settingsFieldSchemas } from '../contract/ipc/settings.ts';
import type { Core } from '../core/core.ts';
import { defaultDataDir } from '../core/paths.ts';
import { redactSecrets } from '../core/secrets/redact.ts';
import { CliError, EXIT, usageError } from './exit-codes.ts';
import type { Output } from './output.ts';
import { withRunOverrides } from './settings-overlay.ts';

export interface GlobalChoices {
  baseUrl?: string | undefined;
  dataDir?: string | undefined;
}

export interface SessionOptions {
  /** `watch` follows the app's Auto-download setting; other commands download only with --download. */
  autoDownload: 'setting' | 'off';
}

export interface Session {
  readonly core: Core;
  readonly dataDir: string;
  /** Runs a contract channel through the core's dispatcher; a refusal or failure becomes a CliError. */
  call<C extends InvokeChannel>(channel: C, args: InvokeArgs<C>): Promise<InvokeResult<C>>;
  /** Refuses (exit 2) when no account is open: no key in the environment nor a usable saved one. */
  requireAccount(): Promise<void>;
  close(): Promise<void>;
}

const packageVersion = (): string => {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version?: unknown;
    };
    return typeof pkg.version === 'string' ? pkg.version : '0.0.0';
  } catch {
    return '0.0.0';
  }
};

export function resolveDataDir(choices: GlobalChoices, env: NodeJS.ProcessEnv): string {
  return resolve(choices.dataDir ?? defaultDataDir(env));
}

/** --base-url, else ATELIER_BASE_URL, else null (the saved setting applies). */
export function resolveBaseUrl(choices: GlobalChoices, env: NodeJS.ProcessEnv): string | null {
  const given = choices.baseUrl ?? (env.ATELIER_BASE_URL?.trim() || undefined);
  if (given === undefined) return null;
  const problem = baseUrlProblem(given.trim());
  if (problem) throw usageError(`baseUrl: ${problem}`, 'baseUrl');
  return v.parse(settingsFieldSchemas.baseUrl, given);
}

/** ATELIER_API_KEY, checked with the app's own key rules; the messages never quote the value. */
export function resolveApiKey(env: NodeJS.ProcessEnv): string | null {
  const raw = env.ATELIER_API_KEY;
  if (raw === undefined || raw.trim() === '') return null;
  const parsed = v.safeParse(apiKeySchema, raw);
  if (!parsed.success)
    throw usageError(`ATELIER_API_KEY: ${parsed.issues[0]?.message ?? 'not a usable key'}`, 'ATELIER_API_KEY');
  return parsed.output;
}

export async function openSession(
  choices: GlobalChoices,
  env: NodeJS.ProcessEnv,
  out: Output,
  options: SessionOptions = { autoDownload: 'off' },
): Promise<Session> {
  const dataDir = resolveDataDir(choices, env);
  const baseUrl = resolveBaseUrl(choices, env);
  const apiKey = resolveApiKey(env);
  const redact = (text: string): string => redactSecrets(text, [apiKey]);
  // Loaded only now: help, usage errors and refused requests never pay for (or touch) the core.
  const [{ createCore }, { createLogNotifier }, { createJsonFileStore }, { createLogger }, { logsDir }] =
    await Promise.all([
      import('../core/core.ts'),
      import('../core/host/notifier.ts'),
      import('../core/settings/json-file-store.ts'),
      import('../core/log/index.ts'),
      import('../core/host/folders.ts'),
    ]);
  // The core's own warnings (a retried request, a refused answer) go to the CLI's log file in the
  // data folder, redacted like the app's; stderr keeps to what the command itself has to say.
  const logger = createLogger({ file: join(logsDir(dataDir), 'cli.log'), secrets: () => [apiKey], stderr: false });
  const core = await createCore({
    dataDir,
    host: { kind: 'cli', appVersion: packageVersion(), chromiumVersion: null, electronVersion: null },
    store: withRunOverrides(createJsonFileStore(dataDir), {
      ...(baseUrl !== null ? { baseUrl } : {}),
      ...(options.autoDownload === 'off' ? { autoDownload: false } : {}),
    }),
    apiKeyOverride: apiKey,
    logger,
    hostServices: { notifier: createLogNotifier((line) => out.note(redact(line))) },
  });

  const call = async <C extends InvokeChannel>(channel: C, args: InvokeArgs<C>): Promise<InvokeResult<C>> => {
    const result = await core.dispatch(channel, args);
    if (result.ok) return result.value as InvokeResult<C>;
    throw new CliError(redactInfo(result.error, redact));
  };

  return {
    core,
    dataDir,
    call,
    async requireAccount() {
      const account = await call('account:status', undefined);
      if (account.mode !== 'none') return;
      const message = account.keyConfigured
        ? `No account could be opened for this key and address; the reason is in ${join(logsDir(dataDir), 'cli.log')}.`
        : 'No API key: set ATELIER_API_KEY (the key saved by the app is encrypted for the app only, unless you chose to save it without encryption).';
      throw new CliError({ code: 'auth', message, field: 'ATELIER_API_KEY' }, EXIT.usage);
    },
    async close() {
      await core.close();
      logger.close();
    },
  };
}

function redactInfo(info: ErrorInfo, redact: (text: string) => string): ErrorInfo {
  const clean: ErrorInfo = { ...info, message: redact(info.message) };
  if (info.fields) clean.fields = info.fields.map((f) => ({ field: f.field, message: redact(f.message) }));
  return clean;
}

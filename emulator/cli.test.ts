// The CLI: flag parsing, the single start-up line, and clean shutdown on SIGTERM/SIGINT.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CliUsageError, DEFAULT_PORT, parseCli } from './cli-args.ts';

const MAIN = join(dirname(fileURLToPath(import.meta.url)), 'main.ts');

function options(argv: string[]) {
  const parsed = parseCli(argv);
  if (parsed.help) throw new Error('unexpected help');
  return parsed.options;
}

describe('parseCli', () => {
  it('has the documented defaults', () => {
    expect(options([])).toEqual({ port: DEFAULT_PORT, apiKeys: ['demo-key'] });
  });

  it('reads every basic flag, with repeatable keys', () => {
    expect(
      options([
        '--port',
        '0',
        '--api-key',
        'a',
        '--api-key',
        'b',
        '--time-scale',
        '60',
        '--data-dir',
        '/tmp/x',
        '--seed',
        '9',
        '--max-trainings',
        '3',
      ]),
    ).toEqual({ port: 0, apiKeys: ['a', 'b'], timeScale: 60, dataDir: '/tmp/x', seed: 9, maxConcurrentTrainings: 3 });
  });

  it('turns fault flags into one rule, scoped by --fault-route', () => {
    const parsed = options([
      '--fault-route',
      'GET /jobs/:id',
      '--latency',
      '50',
      '--rate-limit',
      '2',
      '--retry-after',
      '4',
      '--server-error-probability',
      '0.25',
      '--server-error-status',
      '502',
      '--drop-connections',
      '1',
      '--truncate-bodies',
      '1',
      '--malformed-json-probability',
      '0.1',
      '--media-cut-after',
      '1000',
      '--media-cuts',
      '2',
      '--job-failure-probability',
      '0.5',
      '--download-failures',
      '3',
    ]);
    expect(parsed.faults).toEqual({
      rules: [
        {
          method: 'GET',
          path: '/jobs/:id',
          latencyMs: 50,
          rateLimit: { count: 2, retryAfterSeconds: 4 },
          serverError: { probability: 0.25, status: 502 },
          dropConnection: { count: 1 },
          truncateBody: { count: 1 },
          malformedJson: { probability: 0.1 },
          cutMediaAfterBytes: { bytes: 1000, count: 2 },
        },
      ],
      jobFailure: { probability: 0.5 },
      downloadFailure: { count: 3 },
    });
  });

  it('accepts a full fault config as JSON', () => {
    expect(options(['--faults', '{"rules":[{"path":"/media/*","latencyMs":10}]}']).faults).toEqual({
      rules: [{ path: '/media/*', latencyMs: 10 }],
    });
  });

  it('refuses bad values with a usage error', () => {
    for (const argv of [
      ['--port', 'x'],
      ['--time-scale', '0'],
      ['--rate-limit-probability', '3'],
      ['--bogus'],
      ['--faults', '{"nope":1}'],
      ['--fault-route', 'jobs'],
    ]) {
      expect(() => parseCli(argv), argv.join(' ')).toThrow(CliUsageError);
    }
  });

  it('answers --help', () => {
    expect(parseCli(['--help'])).toEqual({ help: true });
  });
});

function run(args: string[]): { child: ChildProcessWithoutNullStreams; output: () => string } {
  const child = spawn(process.execPath, [MAIN, ...args], { stdio: 'pipe' });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  return { child, output: () => out };
}

async function firstLine(child: ChildProcessWithoutNullStreams, output: () => string): Promise<string> {
  while (!output().includes('\n')) await once(child.stdout, 'data');
  return output().split('\n')[0] ?? '';
}

describe('main.ts', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`prints exactly one line, serves, and exits 0 on ${signal}`, async () => {
      const { child, output } = run(['--port', '0', '--api-key', 'cli-key']);
      const line = await firstLine(child, output);
      expect(line).toMatch(/^Emulator listening at http:\/\/127\.0\.0\.1:\d+$/);
      const url = line.replace('Emulator listening at ', '');
      const res = await fetch(`${url}/presets`, { headers: { authorization: 'Bearer cli-key', 'api-version': '1' } });
      expect(res.status).toBe(200);
      child.kill(signal);
      const [code] = (await once(child, 'exit')) as [number | null];
      expect(code).toBe(0);
      expect(output()).toBe(`${line}\n`);
    });
  }

  it('exits 2 with the usage on a bad flag', async () => {
    const { child } = run(['--port', 'nope']);
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(2);
    expect(err).toContain('--port');
    expect(err).toContain('Usage:');
  });
});

// Runs the real `atelier` entry as a subprocess (the way a user or a script does) against an
// emulator started by the test, with a temp data folder, and keeps every output for key checks.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator, type RunningEmulator } from '../../../emulator/index.ts';

export const CLI_ENTRY = join(import.meta.dirname, '..', 'atelier.ts');

/** A key that must never show up anywhere: stdout, stderr, files in the data folder. */
export const SENTINEL_KEY = 'sk-cli-sentinel-4f1c9e27d0b8a6';

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliHarness {
  emulator: RunningEmulator;
  /** Holds every data folder of this harness (the default one and any `fresh()` ones). */
  root: string;
  dataDir: string;
  /** A new, empty data folder: two CLI processes with work in flight should not share one. */
  fresh(name: string): string;
  /** Every output of every run so far, for the "key never printed" check. */
  outputs: string[];
  env(extra?: Record<string, string | undefined>): NodeJS.ProcessEnv;
  run(args: readonly string[], options?: RunOptions): Promise<CliResult>;
  /** Starts a long-running command (watch) and hands back the child to signal. */
  start(args: readonly string[], options?: RunOptions): RunningCli;
  close(): Promise<void>;
}

export interface RunOptions {
  env?: Record<string, string | undefined>;
  /** Another data folder than the harness's default one. */
  dataDir?: string;
  timeoutMs?: number;
}

export interface RunningCli {
  child: ChildProcess;
  output(): { stdout: string; stderr: string };
  /** Resolves when `pattern` appears on stderr or stdout. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<void>;
  exited: Promise<CliResult>;
}

export async function createHarness(options: { timeScale?: number; seed?: number } = {}): Promise<CliHarness> {
  const emulator = await startEmulator({
    apiKeys: [SENTINEL_KEY],
    timeScale: options.timeScale ?? 200,
    seed: options.seed ?? 7,
  });
  const root = mkdtempSync(join(tmpdir(), 'atelier-cli-'));
  const dataDir = join(root, 'data');
  const outputs: string[] = [];
  const env = (extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv => {
    const base: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      // A home of its own: nothing of the real user's ~/.config is read or written.
      HOME: root,
      XDG_CONFIG_HOME: join(root, 'config'),
      ATELIER_API_KEY: SENTINEL_KEY,
      ATELIER_BASE_URL: emulator.url,
      ATELIER_DATA_DIR: dataDir,
    };
    for (const [key, value] of Object.entries(extra)) {
      if (value === undefined) delete base[key];
      else base[key] = value;
    }
    return base;
  };
  const start = (args: readonly string[], runOptions: RunOptions = {}): RunningCli => {
    const childEnv = env({
      ...(runOptions.dataDir ? { ATELIER_DATA_DIR: runOptions.dataDir } : {}),
      ...runOptions.env,
    });
    const child = spawn(process.execPath, [CLI_ENTRY, ...args], { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const watchers = new Set<() => void>();
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      for (const w of watchers) w();
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      for (const w of watchers) w();
    });
    const timeoutMs = runOptions.timeoutMs ?? 30_000;
    const exited = new Promise<CliResult>((resolve) => {
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      child.on('close', (code, signal) => {
        clearTimeout(timer);
        outputs.push(stdout, stderr);
        resolve({ code, signal, stdout, stderr });
      });
    });
    return {
      child,
      output: () => ({ stdout, stderr }),
      exited,
      waitFor: (pattern, waitMs = 20_000) =>
        new Promise<void>((resolve, reject) => {
          const check = () => {
            if (pattern.test(stdout) || pattern.test(stderr)) {
              watchers.delete(check);
              clearTimeout(timer);
              resolve();
            }
          };
          const timer = setTimeout(() => {
            watchers.delete(check);
            reject(new Error(`Timed out waiting for ${pattern}; stderr so far:\n${stderr}\nstdout:\n${stdout}`));
          }, waitMs);
          watchers.add(check);
          check();
        }),
    };
  };
  return {
    emulator,
    root,
    dataDir,
    fresh: (name) => join(root, name),
    outputs,
    env,
    start,
    run: (args, runOptions) => start(args, runOptions).exited,
    async close() {
      await emulator.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** Every file under `dir` whose bytes contain `needle` (binary-safe: SQLite pages included). */
export function filesContaining(dir: string, needle: string): string[] {
  const found: string[] = [];
  const bytes = Buffer.from(needle, 'utf8');
  const walk = (path: string): void => {
    let info;
    try {
      info = statSync(path);
    } catch {
      return;
    }
    if (info.isDirectory()) {
      for (const name of readdirSync(path)) walk(join(path, name));
    } else if (readFileSync(path).includes(bytes)) {
      found.push(path);
    }
  };
  walk(dir);
  return found;
}

/** Requests the emulator counted (the control API is not counted). */
export const requestCount = (emulator: RunningEmulator): number => emulator.control.stats().total;

export const parseJson = (text: string): unknown => JSON.parse(text) as unknown;

/** Small real PNG files (distinct content), written to `dir`. */
export async function writePngs(dir: string, count: number): Promise<string[]> {
  const { default: sharp } = await import('sharp');
  mkdirSync(dir, { recursive: true });
  const files: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const file = join(dir, `photo-${i}.png`);
    await sharp({ create: { width: 96, height: 96, channels: 3, background: { r: (i * 19) % 256, g: 120, b: 200 } } })
      .png()
      .toFile(file);
    files.push(file);
  }
  return files;
}

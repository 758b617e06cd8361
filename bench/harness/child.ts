// Runs a bench child process (Node with type stripping, same binary as the bench) and collects
// its stdout lines; a non-zero exit is an error carrying the end of its stderr.
import { spawn, type ChildProcess } from 'node:child_process';

export interface ChildRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  lines: string[];
  stderr: string;
}

export interface ChildOptions {
  /** Each complete stdout line, as it arrives (the child handle lets the caller kill it). */
  onLine?(line: string, child: ChildProcess): void;
  /** Right after the spawn (to watch or kill the child on other signs than its output). */
  onSpawn?(child: ChildProcess): void;
  timeoutMs?: number;
  /** A kill by this signal is expected (the kill-and-resume scenario), not an error. */
  expectSignal?: NodeJS.Signals;
  env?: NodeJS.ProcessEnv;
  /** Node flags before the script (runNode only), e.g. --expose-gc. */
  nodeArgs?: string[];
}

export function runChild(command: string, args: string[], options: ChildOptions = {}): Promise<ChildRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...options.env } });
    const run: ChildRun = { code: null, signal: null, lines: [], stderr: '' };
    options.onSpawn?.(child);
    let buffered = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(
          `${command} ${args.join(' ')} timed out after ${options.timeoutMs} ms; stderr: ${run.stderr.slice(-1000)}`,
        ),
      );
    }, options.timeoutMs ?? 120_000);
    child.stderr.on('data', (chunk: Buffer) => {
      run.stderr = (run.stderr + chunk.toString()).slice(-20_000);
    });
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const parts = buffered.split('\n');
      buffered = parts.pop() ?? '';
      for (const line of parts) {
        run.lines.push(line);
        options.onLine?.(line, child);
      }
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (buffered) run.lines.push(buffered);
      run.code = code;
      run.signal = signal;
      if (code === 0 || (signal !== null && signal === options.expectSignal)) resolve(run);
      else
        reject(
          new Error(
            `${args.find((a) => !a.startsWith('-')) ?? command} exited with ${code ?? signal}; stderr: ${run.stderr.slice(-2000)}`,
          ),
        );
    });
  });
}

/** Runs a .ts child with the bench's own Node (24, type stripping). */
export const runNode = (script: string, args: string[], options: ChildOptions = {}): Promise<ChildRun> =>
  runChild(process.execPath, [...(options.nodeArgs ?? []), script, ...args], options);

/** The last stdout line that parses as JSON. */
export function lastJson<T>(run: ChildRun): T {
  for (let i = run.lines.length - 1; i >= 0; i -= 1) {
    const line = run.lines[i]!.trim();
    if (line.startsWith('{')) return JSON.parse(line) as T;
  }
  throw new Error(`no JSON line in the child's output: ${run.lines.slice(-5).join(' | ')}`);
}

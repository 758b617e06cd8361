// Test helper: runs download-driver.ts in a child process, parses its lines, and can SIGKILL it
// once the reported bytes pass a threshold.
import { spawn } from 'node:child_process';
import { join } from 'node:path';

const DRIVER = join(import.meta.dirname, 'download-driver.ts');

export interface DriverRun {
  killed: boolean;
  /** First-to-last media requests: asset id and the byte the range started at. */
  requests: { id: string; start: number }[];
  lines: string[];
  peakRss: number;
}

export function runDriver(options: {
  dbFile: string;
  root: string;
  emulatorUrl: string;
  killAtBytes?: number | null;
  throttleMs?: number;
  rss?: boolean;
  timeoutMs?: number;
}): Promise<DriverRun> {
  const args = [
    DRIVER,
    options.dbFile,
    options.root,
    options.emulatorUrl,
    '--throttle-ms',
    String(options.throttleMs ?? 0),
  ];
  if (options.rss) args.push('--rss');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const progress = new Map<string, number>();
    const run: DriverRun = { killed: false, requests: [], lines: [], peakRss: 0 };
    let buffered = '';
    let stderr = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`driver timed out; stderr: ${stderr.slice(-2000)}`));
    }, options.timeoutMs ?? 60_000);
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const parts = buffered.split('\n');
      buffered = parts.pop() ?? '';
      for (const line of parts) {
        run.lines.push(line);
        const [tag, id, value] = line.split(' ');
        if (tag === 'REQ' && id) run.requests.push({ id, start: Number(value) });
        if (tag === 'P' && id) progress.set(id, Number(value));
        if (tag === 'RSS' && id) run.peakRss = Math.max(run.peakRss, Number(id));
        const sum = [...progress.values()].reduce((a, b) => a + b, 0);
        const limit = options.killAtBytes;
        if (!run.killed && limit !== null && limit !== undefined && sum >= limit) {
          run.killed = true;
          child.kill('SIGKILL');
        }
      }
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (signal === 'SIGKILL' || code === 0) resolve(run);
      else reject(new Error(`driver exited with ${code}; stderr: ${stderr.slice(-2000)}`));
    });
  });
}

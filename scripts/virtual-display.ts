// A display for Electron on headless Linux (CI, containers): Xvfb on the first free display
// number, started only when there is no DISPLAY or WAYLAND_DISPLAY. Machines without Xvfb get
// null and say so (the `_electron` specs skip with that reason), or run under `xvfb-run`.
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

export function needsVirtualDisplay(env: NodeJS.ProcessEnv = process.env, platform = process.platform): boolean {
  return platform === 'linux' && !env.DISPLAY && !env.WAYLAND_DISPLAY;
}

/** An executable on the PATH, or null. */
export function onPath(name: string, env: NodeJS.ProcessEnv = process.env): string | null {
  for (const dir of (env.PATH ?? '').split(delimiter).filter(Boolean)) {
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // keep looking
    }
  }
  return null;
}

export interface VirtualDisplay {
  /** For DISPLAY, e.g. ":99". */
  display: string;
  stop(): void;
}

/** Starts Xvfb (`-displayfd` picks a free display and tells which); rejects after `timeoutMs`. */
export function startXvfb(xvfb: string, timeoutMs = 10_000): Promise<VirtualDisplay> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(
      xvfb,
      ['-displayfd', '1', '-screen', '0', '1280x800x24', '-nolisten', 'tcp', '-noreset'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    const fail = (message: string) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`Xvfb did not start: ${message}${stderr ? ` (${stderr.trim().split('\n').at(-1)})` : ''}`));
    };
    const timer = setTimeout(() => fail(`no display after ${timeoutMs} ms`), timeoutMs);
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /^(\d+)\n/.exec(stdout);
      if (!match) return;
      clearTimeout(timer);
      const stopOnExit = () => child.kill();
      process.once('exit', stopOnExit);
      resolve({
        display: `:${match[1]}`,
        stop() {
          process.off('exit', stopOnExit);
          child.kill();
        },
      });
    });
    child.on('error', (error) => fail(error.message));
    child.on('exit', (code) => fail(`exited with ${code}`));
  });
}

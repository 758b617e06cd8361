// `npm start`: makes sure the Electron binary is there (installing it with the electron package's
// own installer, progress shown), builds the app with electron-vite, and launches it with your
// arguments (`npm start -- --demo`). When Electron cannot be installed: one line with the cause
// and the browser alternative, exit 1.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureElectron, type InstallOutput } from './electron-install.ts';
import { linuxSandboxCheck } from './electron-sandbox.ts';
import { repoRoot, runBin } from './package-bin.ts';

export const BROWSER_FALLBACK = 'Run `npm run start:browser` to use Atelier in your browser instead.';

export interface StartOptions {
  /** The user's arguments, passed on to the app. */
  args: readonly string[];
  env?: NodeJS.ProcessEnv;
  output?: InstallOutput;
  /** The folder Electron loads (its package.json names out/main). */
  appPath?: string;
  /** Builds out/ and returns an exit status (default: electron-vite build). */
  build?: () => number | Promise<number>;
  stallMs?: number;
  /** The `electron` package folder (default: the installed one; tests use a copy). */
  electronPackage?: string;
}

/** `electron-vite build`, its bin run by this Node (never a bare `npx`, which Windows cannot spawn). */
export function buildApp(cwd = repoRoot): number {
  const result = runBin('electron-vite', ['build'], { cwd });
  if (result.error) {
    process.stderr.write(`Atelier: the build could not start: ${result.error.message}\n`);
    return 1;
  }
  return result.status ?? 1;
}

/**
 * Runs the binary on the app folder with the user's arguments; resolves with its exit code.
 * On a Linux where Chromium's sandbox cannot work with this binary, `--no-sandbox` comes first,
 * said in one line (electron-sandbox.ts).
 */
export function launchElectron(
  binary: string,
  appPath: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  output: InstallOutput = process.stderr,
): Promise<number> {
  // Left over from an editor's terminal, it would make Electron a plain Node and exit at once.
  const childEnv = { ...env };
  delete childEnv.ELECTRON_RUN_AS_NODE;
  const sandbox = linuxSandboxCheck(binary);
  if (sandbox.reason) output.write(`Atelier: starting Electron with ${sandbox.args.join(' ')}: ${sandbox.reason}.\n`);
  return new Promise((done) => {
    const child = spawn(binary, [...sandbox.args, appPath, ...args], { stdio: 'inherit', env: childEnv });
    const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
    const forward = (signal: NodeJS.Signals) => child.kill(signal);
    for (const signal of signals) process.on(signal, forward);
    const stop = (code: number) => {
      for (const signal of signals) process.off(signal, forward);
      done(code);
    };
    child.on('error', (error) => {
      process.stderr.write(`Atelier: Electron could not be started (${binary}): ${error.message}\n`);
      stop(1);
    });
    child.on('close', (code, signal) => stop(code ?? (signal ? 1 : 0)));
  });
}

export async function startElectron(options: StartOptions): Promise<number> {
  const env = options.env ?? process.env;
  const output = options.output ?? process.stderr;
  const electron = await ensureElectron({
    env,
    output,
    ...(options.stallMs === undefined ? {} : { stallMs: options.stallMs }),
    ...(options.electronPackage === undefined ? {} : { packageDir: options.electronPackage }),
  });
  if (!electron.ok) {
    output.write(`Atelier: Electron could not be installed: ${electron.cause}. ${BROWSER_FALLBACK}\n`);
    return 1;
  }
  const built = await (options.build ?? buildApp)();
  if (built !== 0) return built;
  return launchElectron(electron.binary, options.appPath ?? repoRoot, options.args, env, output);
}

const runAsScript = process.argv[1] && pathToFileURL(resolve(process.argv[1])).href === import.meta.url;
if (runAsScript) process.exit(await startElectron({ args: process.argv.slice(2) }));

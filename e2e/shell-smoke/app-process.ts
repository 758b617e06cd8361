// Starts the built main bundle in a child Node process under the electron stand-in
// (run-app.ts) and talks to it: state snapshots, page invokes, user actions, its exit.
import { fork, type ChildProcess } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { StandInScenario, standInState } from './electron-stand-in.ts';

export const repoRoot = resolve(import.meta.dirname, '..', '..');
export const builtMain = join(repoRoot, 'out', 'main', 'index.js');
const runApp = join(import.meta.dirname, 'run-app.ts');

export type AppState = ReturnType<typeof standInState>;

export interface LaunchOptions {
  dataDir: string;
  /** Command-line arguments after the app (e.g. --demo). */
  argv?: string[];
  /** A packaged layout made by packagedLayout(); default: this repository, unpackaged. */
  layout?: AppLayout;
  /** The answer of every message box (button index). */
  messageBoxResponse?: number;
  /** Linux: what the fake dbus-send says about a StatusNotifier host. */
  trayHost?: boolean;
}

export interface AppLayout {
  isPackaged: boolean;
  appPath: string;
  entry: string;
  resourcesPath?: string;
}

export interface RunningApp {
  child: ChildProcess;
  call<T = unknown>(op: string, ...args: unknown[]): Promise<T>;
  state(): Promise<AppState>;
  /** Polls the state until `check` passes (returns it) or the time is up (throws with the last state). */
  waitFor(check: (state: AppState) => boolean, what: string, timeoutMs?: number): Promise<AppState>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** The journal the stand-in wrote when the process ended. */
  journal(): AppState;
  output(): string;
  kill(): void;
}

const scratch: string[] = [];

export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `atelier-smoke-${prefix}-`));
  scratch.push(dir);
  return dir;
}

export function removeTempDirs(): void {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
}

export const unpackaged = (): AppLayout => ({ isPackaged: false, appPath: repoRoot, entry: builtMain });

/**
 * What electron-builder makes (electron-builder.yml): the bundles and package.json inside
 * resources/app.asar (a folder here; Electron reads the archive as one), the tray images as an
 * extra resource beside it, the production node_modules with the app.
 */
export function packagedLayout(options: { dropIndexHtml?: boolean } = {}): AppLayout {
  const root = tempDir('packaged');
  const resources = join(root, 'Atelier', 'resources');
  const asar = join(resources, 'app.asar');
  mkdirSync(asar, { recursive: true });
  cpSync(join(repoRoot, 'out'), join(asar, 'out'), { recursive: true });
  cpSync(join(repoRoot, 'package.json'), join(asar, 'package.json'));
  symlinkSync(join(repoRoot, 'node_modules'), join(asar, 'node_modules'), 'junction');
  cpSync(join(repoRoot, 'resources', 'tray'), join(resources, 'tray'), { recursive: true });
  if (options.dropIndexHtml) rmSync(join(asar, 'out', 'renderer', 'index.html'));
  return { isPackaged: true, appPath: asar, entry: join(asar, 'out', 'main', 'index.js'), resourcesPath: resources };
}

/** A dbus-send that answers NameHasOwner as a desktop with (or without) a tray host would. */
function fakeDbusSend(hostUp: boolean): string {
  const bin = tempDir('bin');
  const script = join(bin, 'dbus-send');
  writeFileSync(
    script,
    `#!/bin/sh\necho "method return time=1 sender=org.freedesktop.DBus"\necho "   boolean ${hostUp}"\n`,
  );
  chmodSync(script, 0o755);
  return bin;
}

let launches = 0;

export function launch(options: LaunchOptions): RunningApp {
  const layout = options.layout ?? unpackaged();
  if (!existsSync(layout.entry))
    throw new Error(`${layout.entry} is missing: run npm run test:shell (it builds first)`);
  const journalFile = join(tempDir('journal'), `journal-${++launches}.json`);
  const scenario: StandInScenario = {
    isPackaged: layout.isPackaged,
    appPath: layout.appPath,
    version: JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).version,
    appDataDir: tempDir('appdata'),
    journalFile,
    ...(options.messageBoxResponse === undefined ? {} : { messageBoxResponse: options.messageBoxResponse }),
  };
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ATELIER_DATA_DIR: options.dataDir,
    ATELIER_STAND_IN: JSON.stringify(scenario),
    ATELIER_SMOKE_ENTRY: pathToFileURL(layout.entry).href,
    XDG_CONFIG_HOME: join(options.dataDir, '..', 'xdg-config'),
  };
  delete env.ATELIER_E2E_HOOKS;
  delete env.NODE_OPTIONS;
  delete env.ELECTRON_RUN_AS_NODE;
  if (layout.resourcesPath) env.ATELIER_SMOKE_RESOURCES = layout.resourcesPath;
  else delete env.ATELIER_SMOKE_RESOURCES;
  if (process.platform === 'linux') {
    env.PATH = `${fakeDbusSend(options.trayHost ?? true)}:${env.PATH ?? ''}`;
  }
  const child = fork(runApp, options.argv ?? [], {
    cwd: repoRoot,
    env,
    execArgv: [],
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    // Structured clone, so undefined arguments stay undefined (the contract tells them from null).
    serialization: 'advanced',
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += String(chunk)));
  child.stderr?.on('data', (chunk) => (output += String(chunk)));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolveExit) =>
    child.once('exit', (code, signal) => resolveExit({ code, signal })),
  );
  let nextId = 1;
  const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  child.on('message', (message: { id: number; ok: boolean; result?: unknown; error?: string }) => {
    const waiter = pending.get(message.id);
    pending.delete(message.id);
    if (message.ok) waiter?.resolve(message.result);
    else waiter?.reject(new Error(message.error));
  });
  void exited.then(() => {
    for (const waiter of pending.values()) waiter.reject(new Error(`the app exited\n${output}`));
    pending.clear();
  });
  const call = <T>(op: string, ...args: unknown[]): Promise<T> =>
    new Promise<T>((resolveCall, reject) => {
      if (child.exitCode !== null || child.signalCode !== null) {
        reject(new Error(`the app has exited\n${output}`));
        return;
      }
      const id = nextId++;
      pending.set(id, { resolve: resolveCall as (value: unknown) => void, reject });
      child.send({ id, op, args });
    });
  const state = () => call<AppState>('state');
  return {
    child,
    call,
    state,
    async waitFor(check, what, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      let last: AppState | null = null;
      while (Date.now() < deadline) {
        last = await state();
        if (check(last)) return last;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(
        `timed out waiting for ${what}\nlast state: ${JSON.stringify({ ...last, journal: last?.journal.slice(-15), loadedModules: undefined }, null, 1)}\noutput:\n${output}`,
      );
    },
    exited,
    journal: () => JSON.parse(readFileSync(journalFile, 'utf8')) as AppState,
    output: () => output,
    kill: () => void child.kill('SIGKILL'),
  };
}

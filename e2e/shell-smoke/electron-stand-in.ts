// A STAND-IN for the `electron` module, not Electron: the shell smoke test runs the built main
// bundle (out/main) under plain Node with this module answering `import … from 'electron'`
// (stand-in-hooks.ts resolves the name here). It is strict where Electron is: it throws on
// what Electron refuses (a BrowserWindow, Tray, screen or session before 'ready', a second
// ipcMain.handle for one channel, protocol.handle twice for one scheme) and records as a
// violation what Electron silently ignores or gets wrong (schemes made privileged or the
// sandbox enabled after 'ready', userData moved after the lock or after 'ready', a tray icon
// from a missing file, a preload that is not an absolute path to a file). It runs the real
// sandboxed preload in a vm with the renderer side of IPC, loads pages through the protocol
// handlers the app registered, and keeps Electron's quit order (before-quit, windows closed,
// will-quit, quit). Everything it sees goes into a journal the test reads.
import { EventEmitter } from 'node:events';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, isAbsolute, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import vm from 'node:vm';

/** How the test sets the stand-in up: JSON in ATELIER_STAND_IN. */
export interface StandInScenario {
  isPackaged: boolean;
  appPath: string;
  version: string;
  /** Electron's default userData parent (appData). */
  appDataDir: string;
  /** The button index every message box answers with. */
  messageBoxResponse?: number;
  /** Where the journal is written when the process ends. */
  journalFile: string;
}

export interface JournalEntry {
  /** What was called or emitted, e.g. `app.requestSingleInstanceLock`, `event before-quit`. */
  what: string;
  /** 'starting' before 'ready', then 'ready', 'quitting'. */
  phase: Phase;
  detail?: unknown;
}

type Phase = 'starting' | 'ready' | 'quitting';

const scenario: StandInScenario = JSON.parse(process.env.ATELIER_STAND_IN ?? 'null') ?? {
  isPackaged: false,
  appPath: process.cwd(),
  version: '0.0.0',
  appDataDir: tmpdir(),
  journalFile: join(tmpdir(), `electron-stand-in-${process.pid}.json`),
};

let phase: Phase = 'starting';
const journal: JournalEntry[] = [];
const violations: string[] = [];

function note(what: string, detail?: unknown): void {
  journal.push(detail === undefined ? { what, phase } : { what, phase, detail });
}

/** A rule Electron enforces: recorded, and thrown as Electron throws it. */
function refuse(rule: string): never {
  violations.push(rule);
  note('violation', rule);
  throw new Error(`electron stand-in: ${rule}`);
}

/** A rule whose breach Electron lets pass with a wrong result: recorded only. */
function violation(rule: string): void {
  violations.push(rule);
  note('violation', rule);
}

const requireReady = (what: string): void => {
  if (phase === 'starting') refuse(`${what} used before the app is ready`);
};

/** Unknown members throw by name instead of reading as undefined. */
function strict<T extends object>(target: T, name: string): T {
  return new Proxy(target, {
    get(object, key, receiver) {
      if (typeof key === 'symbol' || key in object || key === 'then' || key === 'toJSON') {
        return Reflect.get(object, key, receiver);
      }
      throw new Error(`electron stand-in: ${name}.${String(key)} is not part of the stand-in`);
    },
  });
}

interface StandInEvent {
  defaultPrevented: boolean;
  preventDefault(): void;
}

const newEvent = (extra: Record<string, unknown> = {}): StandInEvent => {
  const event = {
    defaultPrevented: false,
    preventDefault() {
      event.defaultPrevented = true;
    },
    ...extra,
  };
  return event;
};

// ---------------------------------------------------------------- app

const paths = new Map<string, string>([
  ['appData', scenario.appDataDir],
  ['temp', tmpdir()],
  ['home', tmpdir()],
  ['exe', process.execPath],
]);
let appName = 'Electron';
let lockFile: string | null = null;
let lockTaken = false;
let knockTimer: NodeJS.Timeout | null = null;
let readyResolve: () => void = () => {};
const readyPromise = new Promise<void>((resolve) => (readyResolve = resolve));
// Electron's process lives until it quits: so does this one, whatever else is pending.
const keepAlive = setInterval(() => {}, 1 << 30);
let exiting = false;

const userData = (): string => paths.get('userData') ?? join(scenario.appDataDir, appName);

class App extends EventEmitter {
  get isPackaged(): boolean {
    return scenario.isPackaged;
  }
  getAppPath(): string {
    return scenario.appPath;
  }
  getVersion(): string {
    return scenario.version;
  }
  getName(): string {
    return appName;
  }
  setName(name: string): void {
    note('app.setName', name);
    appName = name;
  }
  getPath(name: string): string {
    if (name === 'userData') return userData();
    const path = paths.get(name);
    if (!path) throw new Error(`electron stand-in: no path named ${name}`);
    return path;
  }
  setPath(name: string, path: string): void {
    note('app.setPath', { name, path });
    if (!isAbsolute(path)) refuse(`app.setPath('${name}') needs an absolute path`);
    if (name === 'userData' && phase !== 'starting') violation("app.setPath('userData') after ready");
    if (name === 'userData' && lockTaken) violation("app.setPath('userData') after the single-instance lock was taken");
    paths.set(name, path);
  }
  isReady(): boolean {
    return phase !== 'starting';
  }
  whenReady(): Promise<void> {
    return readyPromise;
  }
  enableSandbox(): void {
    note('app.enableSandbox');
    if (phase !== 'starting') refuse('app.enableSandbox() after ready');
  }
  setAppUserModelId(id: string): void {
    note('app.setAppUserModelId', id);
    if (typeof id !== 'string' || id.length === 0) refuse('app.setAppUserModelId needs an id');
  }
  setLoginItemSettings(settings: unknown): void {
    note('app.setLoginItemSettings', settings);
  }
  focus(): void {
    note('app.focus');
  }
  requestSingleInstanceLock(): boolean {
    note('app.requestSingleInstanceLock', { userData: userData() });
    const dir = userData();
    // Electron makes the folder first; one it cannot make answers "taken".
    try {
      mkdirSync(dir, { recursive: true });
    } catch {
      note('lock: the user data folder cannot be made');
      return false;
    }
    const file = join(dir, 'SingletonLock.stand-in');
    const holder = (() => {
      try {
        return Number(readFileSync(file, 'utf8'));
      } catch {
        return null;
      }
    })();
    if (holder !== null && holder !== process.pid && isAlive(holder)) {
      knock(dir);
      note('lock: held by another instance, which was told', { holder });
      return false;
    }
    try {
      const fd = openSync(file, 'w');
      writeFileSync(fd, String(process.pid));
      closeSync(fd);
    } catch {
      return false;
    }
    lockFile = file;
    lockTaken = true;
    knockTimer = setInterval(() => answerKnocks(dir), 50);
    return true;
  }
  hasSingleInstanceLock(): boolean {
    return lockTaken;
  }
  releaseSingleInstanceLock(): void {
    note('app.releaseSingleInstanceLock');
    releaseLock();
  }
  quit(): void {
    note('app.quit');
    if (exiting) return;
    const beforeQuit = newEvent();
    const previous = phase;
    phase = 'quitting';
    note('event before-quit');
    this.emit('before-quit', beforeQuit);
    if (beforeQuit.defaultPrevented) {
      note('quit held by before-quit');
      phase = previous === 'starting' ? 'starting' : 'ready';
      quitAsked = true;
      return;
    }
    for (const win of [...windows]) {
      win.close();
      if (!win.isDestroyed()) {
        note('quit cancelled: a window refused to close');
        phase = 'ready';
        return;
      }
    }
    const willQuit = newEvent();
    note('event will-quit');
    this.emit('will-quit', willQuit);
    if (willQuit.defaultPrevented) {
      note('quit held by will-quit');
      phase = 'ready';
      return;
    }
    note('event quit');
    this.emit('quit', newEvent(), 0);
    this.exit(0);
  }
  exit(code = 0): void {
    note('app.exit', code);
    if (exiting) return;
    exiting = true;
    process.exitCode = code;
    finish();
    process.exit(code);
  }
}

/** quit() was held once (the app closes its core first): the quitting phase holds. */
let quitAsked = false;

export const app = strict(new App(), 'app');

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const knocksDir = (dir: string): string => join(dir, 'SingletonKnocks.stand-in');

function knock(dir: string): void {
  mkdirSync(knocksDir(dir), { recursive: true });
  writeFileSync(
    join(knocksDir(dir), `${process.pid}-${Date.now()}.json`),
    JSON.stringify({ argv: process.argv, cwd: process.cwd() }),
  );
}

function answerKnocks(dir: string): void {
  let names: string[];
  try {
    names = readdirSync(knocksDir(dir));
  } catch {
    return;
  }
  for (const name of names) {
    const file = join(knocksDir(dir), name);
    let data: { argv: string[]; cwd: string };
    try {
      data = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      continue;
    }
    rmSync(file, { force: true });
    note('event second-instance', { argv: data.argv.slice(2) });
    app.emit('second-instance', newEvent(), data.argv, data.cwd, null);
  }
}

function releaseLock(): void {
  if (knockTimer) clearInterval(knockTimer);
  knockTimer = null;
  if (lockFile && lockTaken) rmSync(lockFile, { force: true });
  lockTaken = false;
}

/** Electron's 'ready': on the event loop once the entry module has run. */
export function fireReady(): void {
  setImmediate(() => {
    phase = 'ready';
    note('event ready');
    app.emit('will-finish-launching');
    app.emit('ready', newEvent(), {});
    readyResolve();
  });
}

function finish(): void {
  clearInterval(keepAlive);
  releaseLock();
  writeJournal();
}

export function writeJournal(): void {
  writeFileSync(scenario.journalFile, JSON.stringify(standInState(), null, 1));
}

process.on('exit', () => {
  if (!exiting) {
    note('process exit without app.quit or app.exit');
    violation('the process ended without app.quit() or app.exit()');
  }
  releaseLock();
  writeJournal();
});

// ---------------------------------------------------------------- protocol, session, net

interface PrivilegedScheme {
  scheme: string;
  privileges?: Record<string, boolean>;
}

type ProtocolHandler = (request: Request) => Response | Promise<Response>;

let privileged: PrivilegedScheme[] | null = null;
const handlers = new Map<string, ProtocolHandler>();

export const protocol = strict(
  {
    registerSchemesAsPrivileged(schemes: PrivilegedScheme[]): void {
      note('protocol.registerSchemesAsPrivileged', schemes);
      if (phase !== 'starting') refuse('protocol.registerSchemesAsPrivileged after ready');
      if (privileged)
        violation('protocol.registerSchemesAsPrivileged called twice (the second call replaces the first)');
      privileged = schemes;
    },
    handle(scheme: string, handler: ProtocolHandler): void {
      defaultSessionObject().protocol.handle(scheme, handler);
    },
    isProtocolHandled: (scheme: string): boolean => handlers.has(scheme),
  },
  'protocol',
);

const MIME: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

async function fetchAny(input: string | Request, init?: RequestInit): Promise<Response> {
  const request = typeof input === 'string' ? new Request(input, init) : input;
  const url = new URL(request.url);
  if (url.protocol === 'file:') {
    const path = fileURLToPath(url);
    if (!existsSync(path)) throw new TypeError(`net::ERR_FILE_NOT_FOUND ${request.url}`);
    const type = MIME[extname(path)] ?? 'application/octet-stream';
    return new Response(readFileSync(path), { status: 200, headers: { 'Content-Type': type } });
  }
  const handler = handlers.get(url.protocol.slice(0, -1));
  if (handler) return handler(request);
  throw new TypeError(`electron stand-in: no network here (${url.protocol})`);
}

export const net = strict(
  {
    fetch(input: string | Request, init?: RequestInit): Promise<Response> {
      requireReady('net.fetch');
      return fetchAny(input, init);
    },
    isOnline: (): boolean => true,
  },
  'net',
);

let defaultSessionCache: ReturnType<typeof makeSession> | null = null;

function makeSession() {
  const webRequestListeners: unknown[] = [];
  return strict(
    {
      protocol: strict(
        {
          handle(scheme: string, handler: ProtocolHandler): void {
            note('protocol.handle', scheme);
            requireReady('protocol.handle');
            if (handlers.has(scheme)) refuse(`protocol.handle('${scheme}') twice`);
            if (!privileged?.some((entry) => entry.scheme === scheme)) {
              violation(`protocol.handle('${scheme}') for a scheme never made privileged`);
            }
            handlers.set(scheme, handler);
          },
          unhandle(scheme: string): void {
            handlers.delete(scheme);
          },
          isProtocolHandled: (scheme: string): boolean => handlers.has(scheme),
        },
        'session.protocol',
      ),
      setPermissionRequestHandler: (handler: unknown) =>
        void note('session.setPermissionRequestHandler', typeof handler),
      setPermissionCheckHandler: (handler: unknown) => void note('session.setPermissionCheckHandler', typeof handler),
      setDevicePermissionHandler: (handler: unknown) => void note('session.setDevicePermissionHandler', typeof handler),
      webRequest: strict(
        {
          onHeadersReceived(listener: unknown): void {
            note('session.webRequest.onHeadersReceived');
            webRequestListeners.push(listener);
          },
        },
        'session.webRequest',
      ),
    },
    'session',
  );
}

function defaultSessionObject() {
  requireReady('session.defaultSession');
  return (defaultSessionCache ??= makeSession());
}

export const session = strict(
  {
    get defaultSession() {
      return defaultSessionObject();
    },
  },
  'session',
);

// ---------------------------------------------------------------- ipc

type InvokeHandler = (event: unknown, ...args: unknown[]) => unknown;
const invokeHandlers = new Map<string, InvokeHandler>();

class IpcMain extends EventEmitter {
  handle(channel: string, handler: InvokeHandler): void {
    note('ipcMain.handle', channel);
    if (invokeHandlers.has(channel)) refuse(`Attempted to register a second handler for '${channel}'`);
    invokeHandlers.set(channel, handler);
  }
  removeHandler(channel: string): void {
    note('ipcMain.removeHandler', channel);
    invokeHandlers.delete(channel);
  }
}

export const ipcMain = strict(new IpcMain(), 'ipcMain');

interface Frame {
  url: string;
  parent: Frame | null;
}

/** Main-process side of an invoke, as Electron hands it to ipcMain.handle. */
async function invokeMain(
  sender: WebContents,
  frame: Frame | null,
  channel: string,
  args: unknown[],
): Promise<unknown> {
  const handler = invokeHandlers.get(channel);
  if (!handler) throw new Error(`Error invoking remote method '${channel}': No handler registered for '${channel}'`);
  const event = { sender, senderFrame: frame, processId: 1, frameId: 1 };
  return structuredClone(await handler(event, ...structuredClone(args)));
}

// ---------------------------------------------------------------- windows and pages

const windows: BrowserWindow[] = [];
let nextId = 1;

/** The renderer side of one loaded page: the preload's world and its IPC listeners. */
interface Page {
  url: string;
  html: string;
  status: number;
  headers: Record<string, string>;
  world: Record<string, unknown>;
  listeners: Map<string, Set<(...args: unknown[]) => void>>;
}

class WebContents extends EventEmitter {
  readonly id = nextId++;
  readonly owner: BrowserWindow | null;
  private url = '';
  private loading = false;
  private destroyed = false;
  page: Page | null = null;
  loads: string[] = [];
  windowOpenHandler: unknown = null;
  readonly mainFrame: Frame;
  constructor(owner: BrowserWindow | null, url = '') {
    super();
    this.owner = owner;
    this.url = url;
    const currentUrl = (): string => this.url;
    this.mainFrame = {
      get url() {
        return currentUrl();
      },
      parent: null,
    };
  }
  getURL(): string {
    return this.url;
  }
  isLoading(): boolean {
    return this.loading;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  destroy(): void {
    this.destroyed = true;
    this.page = null;
  }
  setWindowOpenHandler(handler: unknown): void {
    this.windowOpenHandler = handler;
  }
  send(channel: string, ...args: unknown[]): void {
    if (this.destroyed) refuse('webContents.send on a destroyed webContents');
    for (const listener of this.page?.listeners.get(channel) ?? [])
      listener({ sender: null }, ...structuredClone(args));
  }
  reload(): void {
    void this.loadURL(this.url).catch(() => {});
  }
  async loadURL(url: string): Promise<void> {
    note('webContents.loadURL', url);
    this.loads.push(url);
    this.loading = true;
    this.emit('did-start-loading');
    let response: Response;
    try {
      const scheme = new URL(url).protocol.slice(0, -1);
      if (scheme !== 'file' && !handlers.has(scheme)) throw new Error(`ERR_UNKNOWN_URL_SCHEME`);
      response = await fetchAny(new Request(url));
    } catch (error) {
      this.loading = false;
      note('page failed', { url, error: String(error) });
      this.emit('did-fail-load', newEvent(), -2, 'ERR_FAILED', url, true, 1, 1);
      this.emit('did-stop-loading');
      throw new Error(`ERR_FAILED (-2) loading '${url}'`);
    }
    const html = await response.text();
    this.url = url;
    this.page = null;
    this.emit('did-navigate', newEvent(), url, response.status, response.statusText);
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => (headers[name] = value));
    const page: Page = { url, html, status: response.status, headers, world: {}, listeners: new Map() };
    this.page = page;
    const preload = this.owner?.webPreferences.preload;
    if (typeof preload === 'string') runPreload(this, page, preload);
    this.loading = false;
    this.emit('dom-ready', newEvent());
    this.emit('did-finish-load', newEvent());
    this.emit('did-stop-loading');
    this.owner?.pageShown();
  }
  /** The renderer process dies (a crash, the OOM killer). */
  crash(reason = 'crashed'): void {
    note('renderer gone', reason);
    this.page = null;
    this.emit('render-process-gone', newEvent(), { reason, exitCode: 139 });
  }
}

/** The sandboxed preload: CommonJS, only `electron` (and a few safe modules) may be required. */
function runPreload(contents: WebContents, page: Page, preloadFile: string): void {
  const code = readFileSync(preloadFile, 'utf8');
  const rendererElectron = {
    contextBridge: {
      exposeInMainWorld(key: string, api: unknown) {
        note('contextBridge.exposeInMainWorld', key);
        page.world[key] = api;
      },
    },
    ipcRenderer: {
      invoke: (channel: string, ...args: unknown[]) => invokeMain(contents, contents.mainFrame, channel, args),
      on(channel: string, listener: (...args: unknown[]) => void) {
        const set = page.listeners.get(channel) ?? new Set();
        set.add(listener);
        page.listeners.set(channel, set);
        return this;
      },
      removeListener(channel: string, listener: (...args: unknown[]) => void) {
        page.listeners.get(channel)?.delete(listener);
        return this;
      },
    },
  };
  const sandboxRequire = (name: string): unknown => {
    if (name === 'electron') return rendererElectron;
    throw new Error(`electron stand-in: a sandboxed preload cannot require('${name}')`);
  };
  const module = { exports: {} };
  const location = new URL(page.url);
  const wrapped = vm.runInNewContext(`(function (require, module, exports) {${code}\n})`, {
    location,
    console,
  }) as (require: unknown, module: unknown, exports: unknown) => void;
  wrapped(sandboxRequire, module, module.exports);
}

interface WindowOptions {
  show?: boolean;
  title?: string;
  webPreferences?: Record<string, unknown>;
  [key: string]: unknown;
}

export class BrowserWindow extends EventEmitter {
  readonly id: number;
  readonly webContents: WebContents;
  readonly webPreferences: Record<string, unknown>;
  readonly options: WindowOptions;
  private visible = false;
  private focused = false;
  private minimized = false;
  private maximized = false;
  private destroyed = false;
  private title: string;
  private shownOnce = false;
  progress = -1;
  constructor(options: WindowOptions = {}) {
    super();
    note('new BrowserWindow', { webPreferences: options.webPreferences });
    requireReady('new BrowserWindow');
    this.options = options;
    this.webPreferences = options.webPreferences ?? {};
    const preload = this.webPreferences.preload;
    if (preload !== undefined && (typeof preload !== 'string' || !isAbsolute(preload) || !existsSync(preload))) {
      violation(`the preload must be an absolute path to a file (got ${String(preload)})`);
      delete this.webPreferences.preload;
    }
    this.title = options.title ?? appName;
    this.webContents = new WebContents(this);
    this.id = this.webContents.id;
    windows.push(this);
    app.emit('web-contents-created', newEvent(), this.webContents);
    app.emit('browser-window-created', newEvent(), this);
    if (options.show !== false) this.show();
  }
  loadURL(url: string): Promise<void> {
    this.alive('loadURL');
    return this.webContents.loadURL(url);
  }
  static getAllWindows(): BrowserWindow[] {
    return [...windows];
  }
  static getFocusedWindow(): BrowserWindow | null {
    return windows.find((win) => win.focused) ?? null;
  }
  /** Chromium painted the first page: 'ready-to-show' once. */
  pageShown(): void {
    if (this.shownOnce || this.destroyed) return;
    this.shownOnce = true;
    this.emit('ready-to-show', newEvent());
  }
  private alive(what: string): void {
    if (this.destroyed) refuse(`BrowserWindow.${what} on a destroyed window ("Object has been destroyed")`);
  }
  show(): void {
    this.alive('show');
    note('win.show');
    this.visible = true;
    this.minimized = false;
    this.focused = true;
    this.emit('show');
  }
  hide(): void {
    this.alive('hide');
    note('win.hide');
    this.visible = false;
    this.focused = false;
    this.emit('hide');
  }
  focus(): void {
    this.alive('focus');
    note('win.focus');
    this.focused = true;
    this.emit('focus');
  }
  isVisible = (): boolean => this.visible;
  isFocused = (): boolean => this.focused;
  isMinimized = (): boolean => this.minimized;
  isMaximized = (): boolean => this.maximized;
  isFullScreen = (): boolean => false;
  isDestroyed = (): boolean => this.destroyed;
  minimize(): void {
    this.minimized = true;
  }
  restore(): void {
    this.minimized = false;
  }
  maximize(): void {
    this.maximized = true;
  }
  unmaximize(): void {
    this.maximized = false;
  }
  getBounds() {
    return { x: 100, y: 100, width: 1280, height: 820 };
  }
  getNormalBounds() {
    return this.getBounds();
  }
  setTitle(title: string): void {
    this.alive('setTitle');
    this.title = title;
  }
  getTitle(): string {
    return this.title;
  }
  setProgressBar(progress: number): void {
    this.alive('setProgressBar');
    this.progress = progress;
  }
  /** The user (or the app) closes the window: 'close' may be prevented; otherwise it is gone. */
  close(): void {
    if (this.destroyed) return;
    const event = newEvent();
    this.emit('close', event);
    if (event.defaultPrevented) {
      note('window close prevented');
      return;
    }
    this.destroy();
  }
  destroy(): void {
    if (this.destroyed) return;
    note('window destroyed');
    this.destroyed = true;
    this.visible = false;
    this.webContents.destroy();
    windows.splice(windows.indexOf(this), 1);
    this.emit('closed');
    // While quitting, Electron does not say the last window closed.
    if (windows.length === 0 && phase !== 'quitting' && !exiting) {
      if (app.listenerCount('window-all-closed') === 0) app.quit();
      else app.emit('window-all-closed', newEvent());
    }
  }
}

// ---------------------------------------------------------------- screen, theme, power

const display = {
  id: 1,
  bounds: { x: 0, y: 0, width: 1920, height: 1080 },
  workArea: { x: 0, y: 0, width: 1920, height: 1040 },
  scaleFactor: 1,
};

export const screen = strict(
  {
    getPrimaryDisplay() {
      requireReady('screen');
      return display;
    },
    getAllDisplays() {
      requireReady('screen');
      return [display];
    },
  },
  'screen',
);

export const nativeTheme = strict({ shouldUseDarkColors: false }, 'nativeTheme');

class PowerMonitor extends EventEmitter {
  override on(event: string, listener: (...args: unknown[]) => void): this {
    requireReady('powerMonitor');
    return super.on(event, listener);
  }
}
export const powerMonitor = strict(new PowerMonitor(), 'powerMonitor');

const blockers = new Map<number, string>();
let nextBlocker = 1;
export const powerSaveBlocker = strict(
  {
    start(type: string): number {
      requireReady('powerSaveBlocker');
      if (type !== 'prevent-app-suspension' && type !== 'prevent-display-sleep')
        refuse(`powerSaveBlocker type ${type}`);
      const id = nextBlocker++;
      blockers.set(id, type);
      note('powerSaveBlocker.start', { id, type });
      return id;
    },
    stop(id: number): boolean {
      note('powerSaveBlocker.stop', id);
      return blockers.delete(id);
    },
    isStarted: (id: number): boolean => blockers.has(id),
  },
  'powerSaveBlocker',
);

export const safeStorage = strict(
  {
    isEncryptionAvailable: (): boolean => phase !== 'starting',
    getSelectedStorageBackend: (): string => (phase === 'starting' ? 'unknown' : 'gnome_libsecret'),
    encryptString(plain: string): Buffer {
      requireReady('safeStorage.encryptString');
      return Buffer.from(`stand-in:${Buffer.from(plain, 'utf8').toString('base64')}`);
    },
    decryptString(data: Buffer): string {
      const text = data.toString('utf8');
      if (!text.startsWith('stand-in:'))
        throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.');
      return Buffer.from(text.slice('stand-in:'.length), 'base64').toString('utf8');
    },
  },
  'safeStorage',
);

// ---------------------------------------------------------------- images, tray, menus

class NativeImage {
  readonly path: string;
  template = false;
  constructor(path: string) {
    this.path = path;
  }
  isEmpty(): boolean {
    return !this.path || !existsSync(this.path);
  }
  setTemplateImage(on: boolean): void {
    this.template = on;
  }
  getSize() {
    return this.isEmpty() ? { width: 0, height: 0 } : { width: 16, height: 16 };
  }
}

export const nativeImage = strict(
  {
    createFromPath(path: string): NativeImage {
      note('nativeImage.createFromPath', path);
      if (!isAbsolute(path)) violation(`nativeImage.createFromPath needs an absolute path (got ${path})`);
      return new NativeImage(path);
    },
    createFromDataURL(url: string): NativeImage {
      note('nativeImage.createFromDataURL', url.slice(0, 32));
      if (!url.startsWith('data:')) violation(`nativeImage.createFromDataURL needs a data: URL`);
      return new NativeImage('');
    },
  },
  'nativeImage',
);

/** Electron's ClipboardItem (main process): MIME type → Blob. */
export class ClipboardItem {
  readonly types: string[];
  constructor(items: Record<string, Blob>) {
    this.types = Object.keys(items);
  }
}

export const clipboard = strict(
  {
    async write(items: ClipboardItem[]): Promise<void> {
      note('clipboard.write', items.map((item) => item.types.join(',')).join(';'));
      requireReady('clipboard.write');
    },
  },
  'clipboard',
);

/** Electron's MenuItem roles (menu-item-roles.ts); an unknown one is refused. */
const ROLES = new Set(
  'undo redo cut copy paste pasteAndMatchStyle delete selectAll reload forceReload toggleDevTools resetZoom zoomIn zoomOut toggleSpellChecker togglefullscreen window minimize close help about services hide hideOthers unhide quit startSpeaking stopSpeaking zoom front appMenu fileMenu editMenu viewMenu shareMenu recentDocuments toggleTabBar selectNextTab selectPreviousTab showAllTabs mergeAllWindows clearRecentDocuments moveTabToNewWindow windowMenu'.split(
    ' ',
  ),
);

interface MenuItemOptions {
  label?: string;
  role?: string;
  type?: string;
  accelerator?: string;
  checked?: boolean;
  enabled?: boolean;
  click?: (...args: unknown[]) => void;
  submenu?: MenuItemOptions[] | Menu;
}

export class Menu {
  readonly items: MenuItemOptions[];
  constructor(items: MenuItemOptions[] = []) {
    this.items = items;
  }
  static buildFromTemplate(template: MenuItemOptions[]): Menu {
    const check = (items: MenuItemOptions[]): void => {
      for (const item of items) {
        if (item.role && !ROLES.has(item.role)) refuse(`Menu: unknown role '${item.role}'`);
        if (!item.role && !item.label && item.type !== 'separator' && !item.submenu)
          refuse('Menu: an item with neither label nor role');
        if (Array.isArray(item.submenu)) check(item.submenu);
      }
    };
    check(template);
    return new Menu(template);
  }
  static setApplicationMenu(menu: Menu | null): void {
    note('Menu.setApplicationMenu', menu ? menuLabels(menu.items) : null);
    applicationMenu = menu;
  }
  static getApplicationMenu(): Menu | null {
    return applicationMenu;
  }
}
let applicationMenu: Menu | null = null;

type LabelTree = (string | { label: string; items: LabelTree })[];

function menuLabels(items: MenuItemOptions[]): LabelTree {
  return items.map((item) => {
    const label = item.type === 'separator' ? '—' : (item.label ?? `(${item.role})`);
    const sub = Array.isArray(item.submenu) ? item.submenu : item.submenu instanceof Menu ? item.submenu.items : null;
    return sub ? { label, items: menuLabels(sub) } : label;
  });
}

const trays: Tray[] = [];

export class Tray extends EventEmitter {
  readonly image: NativeImage;
  tooltip = '';
  title = '';
  menu: Menu | null = null;
  private destroyed = false;
  constructor(image: NativeImage) {
    super();
    note('new Tray', image.path);
    requireReady('new Tray');
    if (!(image instanceof NativeImage)) refuse('new Tray needs a NativeImage');
    if (image.isEmpty()) violation(`the tray icon is an empty image (no file at ${image.path})`);
    this.image = image;
    trays.push(this);
  }
  private alive(what: string): void {
    if (this.destroyed) refuse(`Tray.${what} after destroy ("Object has been destroyed")`);
  }
  setToolTip(text: string): void {
    this.alive('setToolTip');
    this.tooltip = text;
  }
  setTitle(text: string): void {
    this.alive('setTitle');
    this.title = text;
  }
  setContextMenu(menu: Menu): void {
    this.alive('setContextMenu');
    this.menu = menu;
  }
  destroy(): void {
    note('tray.destroy');
    this.destroyed = true;
  }
  isDestroyed = (): boolean => this.destroyed;
}

// ---------------------------------------------------------------- dialogs, notifications, shell

export const dialog = strict(
  {
    showErrorBox(title: string, content: string): void {
      // Electron shows no window for this before 'ready' on Linux (stderr only).
      note('dialog.showErrorBox', { title, content, shownAsWindow: phase !== 'starting' });
      process.stderr.write(`[error box] ${title}\n${content}\n`);
    },
    async showMessageBox(...args: unknown[]) {
      requireReady('dialog.showMessageBox');
      const options = (args.length > 1 ? args[1] : args[0]) as { message?: string; buttons?: string[] };
      const response = scenario.messageBoxResponse ?? 0;
      note('dialog.showMessageBox', {
        message: options.message,
        buttons: options.buttons,
        response,
        parented: args.length > 1,
      });
      return { response, checkboxChecked: false };
    },
    async showOpenDialog(...args: unknown[]) {
      requireReady('dialog.showOpenDialog');
      note('dialog.showOpenDialog', args.length);
      return { canceled: true, filePaths: [] };
    },
  },
  'dialog',
);

export class Notification extends EventEmitter {
  readonly options: Record<string, unknown>;
  constructor(options: Record<string, unknown>) {
    super();
    requireReady('new Notification');
    this.options = options;
  }
  static isSupported(): boolean {
    return true;
  }
  show(): void {
    note('notification.show', { title: this.options.title, body: this.options.body });
  }
}

export const shell = strict(
  {
    openPath: async (path: string): Promise<string> => (note('shell.openPath', path), ''),
    openExternal: async (url: string): Promise<void> => void note('shell.openExternal', url),
    showItemInFolder: (path: string): void => void note('shell.showItemInFolder', path),
  },
  'shell',
);

// ---------------------------------------------------------------- what the test reads

export function standInState() {
  return {
    phase,
    quitAsked,
    exiting,
    violations: [...violations],
    journal: [...journal],
    privilegedSchemes: privileged?.map((entry) => entry.scheme) ?? [],
    handledSchemes: [...handlers.keys()],
    invokeChannels: [...invokeHandlers.keys()],
    lockHeld: lockTaken,
    windows: windows.map((win) => ({
      id: win.id,
      visible: win.isVisible(),
      focused: win.isFocused(),
      title: win.getTitle(),
      url: win.webContents.getURL(),
      loads: [...win.webContents.loads],
      status: win.webContents.page?.status ?? null,
      bridge: Object.keys(win.webContents.page?.world ?? {}),
      webPreferences: win.webPreferences,
    })),
    trays: trays.map((tray) => ({
      destroyed: tray.isDestroyed(),
      image: tray.image.path,
      tooltip: tray.tooltip,
      menu: tray.menu ? menuLabels(tray.menu.items) : null,
    })),
    applicationMenu: applicationMenu ? menuLabels(applicationMenu.items) : null,
    powerSaveBlockers: [...blockers.values()],
    /** Every module resolved so far (stand-in-hooks.ts). */
    loadedModules: [...((globalThis as { __smokeLoadedModules?: string[] }).__smokeLoadedModules ?? [])],
  };
}

/** Test controls: what a user, the OS or a renderer would do. Not part of Electron's API. */
export const standIn = {
  fireReady,
  state: standInState,
  mainWindow: (): BrowserWindow | null => windows[0] ?? null,
  /** Through the page's own bridge (the preload's window.atelier), as the renderer calls it. */
  async invokeFromPage(channel: string, args: unknown): Promise<unknown> {
    const win = windows[0];
    const bridge = win?.webContents.page?.world.atelier as
      { invoke(c: string, a: unknown): Promise<unknown> } | undefined;
    if (!bridge) throw new Error('electron stand-in: the page has no window.atelier bridge');
    return bridge.invoke(channel, args);
  },
  /** Events the page's bridge delivers, collected from now on. */
  listenOnPage(event: string): unknown[] {
    const seen: unknown[] = [];
    const bridge = windows[0]?.webContents.page?.world.atelier as
      { on(e: string, l: (p: unknown) => void): unknown } | undefined;
    if (!bridge) throw new Error('electron stand-in: the page has no window.atelier bridge');
    bridge.on(event, (payload) => seen.push(payload));
    return seen;
  },
  /** An invoke of the app's raw channel from somewhere that is not the app's page. */
  invokeFromElsewhere(kind: 'foreign-contents' | 'sub-frame' | 'foreign-page', channel: string, args: unknown[]) {
    const win = windows[0];
    if (kind === 'foreign-contents') {
      const foreign = new WebContents(null, 'atelier://app/index.html');
      return invokeMain(foreign, foreign.mainFrame, channel, args);
    }
    if (!win) throw new Error('electron stand-in: no window');
    if (kind === 'sub-frame') {
      const frame: Frame = { url: 'atelier://app/index.html', parent: win.webContents.mainFrame };
      return invokeMain(win.webContents, frame, channel, args);
    }
    return invokeMain(win.webContents, { url: 'https://example.invalid/', parent: null }, channel, args);
  },
  /** A request as the page would make it, answered by the protocol handler the app registered. */
  async fetch(url: string, init?: RequestInit) {
    const response = await fetchAny(new Request(url, init));
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => (headers[name] = value));
    return { status: response.status, headers, text: await response.text() };
  },
  pageHtml: (): string | null => windows[0]?.webContents.page?.html ?? null,
  clickTray(label: string): void {
    const tray = trays.find((t) => !t.isDestroyed());
    const item = tray?.menu?.items.find((i) => i.label === label);
    if (!item?.click) throw new Error(`electron stand-in: no tray item '${label}'`);
    item.click();
  },
  closeWindow(): void {
    windows[0]?.close();
  },
  crashRenderer(): void {
    windows[0]?.webContents.crash();
  },
  fileUrl: (path: string): string => pathToFileURL(path).toString(),
};

export default strict(
  {
    app,
    BrowserWindow,
    clipboard,
    ClipboardItem,
    dialog,
    ipcMain,
    Menu,
    nativeImage,
    nativeTheme,
    net,
    Notification,
    powerMonitor,
    powerSaveBlocker,
    protocol,
    safeStorage,
    screen,
    session,
    shell,
    Tray,
  },
  'electron',
);

// Shell smoke test: the BUILT main bundle (out/main, `npm run test:shell` builds it first) runs
// under plain Node with a strict stand-in for the `electron` module (electron-stand-in.ts, not
// Electron), which enforces Electron's lifecycle rules and records every call. What it proves
// end to end, without an Electron binary: the start, the app protocol, the preload bridge and
// IPC sender check, tray and menus, close-to-tray, a second launch, a clean quit, recovery
// from a damaged settings file, failures that end in an error box, and a packaged layout.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  builtMain,
  launch,
  packagedLayout,
  removeTempDirs,
  tempDir,
  type AppState,
  type RunningApp,
} from './app-process.ts';

const running: RunningApp[] = [];
const start = (...args: Parameters<typeof launch>): RunningApp => {
  const app = launch(...args);
  running.push(app);
  return app;
};
afterEach(() => {
  for (const app of running.splice(0)) app.kill();
});
afterAll(removeTempDirs);

const newDataDir = (): string => join(tempDir('data'), 'Atelier');

const mainWindow = (state: AppState) => state.windows[0];
const pageShown = (state: AppState): boolean =>
  mainWindow(state)?.visible === true &&
  mainWindow(state)?.status === 200 &&
  (mainWindow(state)?.bridge.length ?? 0) > 0;
const calls = (state: AppState, what: string) => state.journal.filter((entry) => entry.what === what);
const trayImage = process.platform === 'darwin' ? 'trayTemplate.png' : 'tray.png';

/** Modules a start must not load: sharp (libvips), the emulator's chunk and its server. */
const heavy = (modules: readonly string[]) =>
  modules.filter((url) => /\/sharp\/|\/@img\/|demo-emulator-[\w-]+\.js$|\/fastify\//.test(url));

interface Result<T> {
  ok: boolean;
  value?: T;
  error?: { code: string; message: string };
}

async function quitAndWait(app: RunningApp, how: (app: RunningApp) => Promise<unknown>) {
  await how(app);
  const exit = await app.exited;
  return { exit, journal: app.journal() };
}

describe('shell smoke (built out/main under the electron stand-in)', () => {
  it('has a built bundle to test', () => {
    expect(existsSync(builtMain), 'run `npm run test:shell`, which builds out/ first').toBe(true);
  });

  it('starts, serves the page through atelier://, answers IPC from its page only, and quits in the order Electron keeps', async () => {
    const dataDir = newDataDir();
    const app = start({ dataDir, trayHost: true });
    const ready = await app.waitFor(pageShown, 'the window showing the page');

    // Lifecycle: the rules held, in Electron's order.
    expect(ready.violations).toEqual([]);
    const order = ready.journal.map((entry) => `${entry.what}@${entry.phase}`);
    const before = (a: string, b: string) => expect(order.indexOf(a)).toBeLessThan(order.indexOf(b));
    before('app.requestSingleInstanceLock@starting', 'protocol.registerSchemesAsPrivileged@starting');
    before('app.enableSandbox@starting', 'event ready@ready');
    before('protocol.registerSchemesAsPrivileged@starting', 'event ready@ready');
    before('event ready@ready', 'new BrowserWindow@ready');
    expect(ready.privilegedSchemes).toEqual(['atelier', 'atelier-media']);
    expect(ready.handledSchemes.sort()).toEqual(['atelier', 'atelier-media']);
    expect(calls(ready, 'app.setPath')[0]?.detail).toEqual({ name: 'userData', path: dataDir });
    expect(ready.lockHeld).toBe(true);

    // The window: the security checklist, our preload, our page.
    const win = mainWindow(ready)!;
    expect(win.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      devTools: true,
      preload: join(builtMain, '..', '..', 'preload', 'index.cjs'),
    });
    expect(win.url).toBe('atelier://app/index.html');
    expect(win.title).toBe('Atelier');
    if (process.platform === 'win32') {
      // Unpackaged, notifications are attributed to the executable that runs the app.
      expect(calls(ready, 'app.setAppUserModelId')[0]?.detail).toBe(process.execPath);
    }
    expect(win.bridge).toEqual(['atelier']);

    // The page and its assets come from the real handler, with the CSP; nothing outside out/renderer.
    const page = await app.call<{ status: number; headers: Record<string, string>; text: string }>(
      'fetch',
      'atelier://app/index.html',
    );
    expect(page.status).toBe(200);
    expect(page.text).toContain('<div id="app"></div>');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    const script = /src="\.\/(assets\/[^"]+\.js)"/.exec(page.text)?.[1];
    expect((await app.call<{ status: number }>('fetch', `atelier://app/${script}`)).status).toBe(200);
    // A way out of out/renderer is looked up inside it (and not found there).
    await expect(app.call('fetch', 'atelier://app/..%2f..%2fpackage.json')).rejects.toThrow(
      /ERR_FILE_NOT_FOUND file:.*\/out\/renderer\/package\.json/,
    );
    expect((await app.call<{ status: number }>('fetch', 'atelier://app/index.html', { method: 'POST' })).status).toBe(
      405,
    );

    // IPC: the page's own bridge (the real preload) → the binding's sender check → the core.
    const info = await app.call<Result<{ host: string; dataDir: string }>>('invokeFromPage', 'app:info', undefined);
    expect(info).toMatchObject({ ok: true, value: { host: 'electron', dataDir } });
    const bad = await app.call<Result<unknown>>('invokeFromPage', 'settings:update', { theme: 'purple' });
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_argument' } });
    for (const kind of ['foreign-contents', 'sub-frame', 'foreign-page'] as const) {
      const refused = await app.call<Result<unknown>>('invokeFromElsewhere', kind, 'atelier:invoke', [
        'app:info',
        undefined,
      ]);
      expect(refused, kind).toMatchObject({
        ok: false,
        error: { message: 'Refused: the caller is not an Atelier window.' },
      });
    }
    // Events reach the page; Open at login is applied to the system.
    await app.call('listenOnPage', 'settings:changed');
    const changed = await app.call<Result<{ openAtLogin: boolean }>>('invokeFromPage', 'settings:update', {
      openAtLogin: true,
    });
    expect(changed).toMatchObject({ ok: true, value: { openAtLogin: true } });
    expect(await app.call<unknown[]>('heard', 'settings:changed')).toMatchObject([{ openAtLogin: true }]);
    if (process.platform === 'linux') {
      const entry = readFileSync(join(dataDir, '..', 'xdg-config', 'autostart', 'atelier.desktop'), 'utf8');
      expect(entry).toContain('[Desktop Entry]');
    } else {
      expect(calls(await app.state(), 'app.setLoginItemSettings').at(-1)?.detail).toMatchObject({ openAtLogin: true });
    }

    // Tray and menus.
    const tray = ready.trays[0]!;
    expect(tray.destroyed).toBe(false);
    expect(tray.image).toBe(join(builtMain, '..', '..', '..', 'resources', 'tray', trayImage));
    expect(tray.tooltip).toBe('Atelier — No jobs in progress');
    expect(tray.menu).toEqual(['No jobs in progress', '—', 'Open Atelier', 'Pause Checking Jobs', '—', 'Quit Atelier']);
    const menus = (ready.applicationMenu ?? []).map((menu) => (typeof menu === 'string' ? menu : menu.label));
    expect(menus).toContain(process.platform === 'darwin' ? 'Help' : '&Help');

    // Nothing heavy was loaded by the start: sharp and the emulator wait for their first use.
    expect(heavy(ready.loadedModules)).toEqual([]);
    expect(ready.loadedModules.some((url) => url.includes('/node_modules/electron/'))).toBe(false);
    expect(ready.loadedModules.some((url) => url.includes('/node_modules/better-sqlite3/'))).toBe(true);
    // No request yet, so no got (the settings are electron-store's: the app loads conf and ajv with it).
    expect(ready.loadedModules.filter((url) => /\/node_modules\/got\//.test(url))).toEqual([]);

    // A dead renderer is reloaded once.
    await app.call('crashRenderer');
    const reloaded = await app.waitFor((s) => pageShown(s) && mainWindow(s)!.loads.length === 2, 'the reload');
    expect(mainWindow(reloaded)!.loads).toEqual(['atelier://app/index.html', 'atelier://app/index.html']);

    // Closing hides to the tray (a tray host is showing it), explained once.
    await app.call('closeWindow');
    const hidden = await app.waitFor((s) => mainWindow(s)?.visible === false, 'the window hidden to the tray');
    expect(hidden.windows).toHaveLength(1);
    expect(calls(hidden, 'dialog.showMessageBox').map((c) => (c.detail as { message: string }).message)).toEqual([
      'Atelier keeps running in the tray',
    ]);

    // A second launch with the same data folder quits at once and brings this window back.
    const second = start({ dataDir });
    expect((await second.exited).code).toBe(0);
    const secondJournal = second.journal();
    expect(secondJournal.violations).toEqual([]);
    expect(secondJournal.windows).toEqual([]);
    expect(calls(secondJournal, 'new BrowserWindow')).toEqual([]);
    expect(calls(secondJournal, 'lock: held by another instance, which was told')).toHaveLength(1);
    const back = await app.waitFor(
      (s) => mainWindow(s)?.visible === true && mainWindow(s)?.focused === true,
      'the window back',
    );
    expect(calls(back, 'event second-instance')).toHaveLength(1);

    // Quit from the tray: before-quit is held until the core closed, then Electron's order.
    const { exit, journal } = await quitAndWait(app, (a) => a.call('clickTray', 'Quit Atelier'));
    expect(exit.code).toBe(0);
    expect(journal.violations).toEqual([]);
    const quitOrder = journal.journal.map((entry) => entry.what);
    expect(quitOrder).toContain('quit held by before-quit');
    expect(quitOrder.indexOf('tray.destroy')).toBeLessThan(quitOrder.lastIndexOf('app.quit'));
    expect(quitOrder.slice(quitOrder.lastIndexOf('app.quit'))).toEqual([
      'app.quit',
      'event before-quit',
      'window destroyed',
      'event will-quit',
      'event quit',
      'app.exit',
    ]);
    expect(quitOrder.filter((w) => w === 'window destroyed')).toHaveLength(1);
    expect(journal.lockHeld).toBe(false);
    expect(journal.powerSaveBlockers).toEqual([]);
    const log = readFileSync(join(dataDir, 'logs', 'atelier.log'), 'utf8');
    expect(log).toMatch(/started after \d+ steps/);
  });

  it('opens the demo only when asked: then the emulator and sharp load, and quit closes its database', async () => {
    const dataDir = newDataDir();
    const app = start({ dataDir, argv: ['--demo'] });
    const ready = await app.waitFor(
      (s) => pageShown(s) && mainWindow(s)!.title === 'Atelier — Demo',
      'the demo account open',
      40_000,
    );
    expect(ready.violations).toEqual([]);
    // The control for the start test above: the recorder does see these when they load.
    const loaded = heavy(ready.loadedModules).join('\n');
    expect(loaded).toMatch(/demo-emulator-[\w-]+\.js/);
    expect(loaded).toMatch(/\/sharp\//);
    expect(loaded).toMatch(/\/fastify\//);
    expect(ready.trays[0]?.tooltip).toBe('Atelier — Demo — No jobs in progress');
    // A job in flight keeps the app from being suspended; the blocker goes once all is done.
    expect(ready.powerSaveBlockers).toEqual([]);
    const submitted = await app.call('invokeFromPage', 'jobs:submit', {
      kind: 'image',
      body: { modelID: 'imagea', prompt: 'a quiet harbor' },
    });
    expect(submitted).toMatchObject({ ok: true, value: { state: 'queued' } });
    const busy = await app.waitFor((s) => s.powerSaveBlockers.length > 0, 'a power save blocker while the job runs');
    expect(busy.powerSaveBlockers).toEqual(['prevent-app-suspension']);
    const idle = await app.waitFor(
      (s) => s.powerSaveBlockers.length === 0 && s.trays[0]?.tooltip === 'Atelier — Demo — No jobs in progress',
      'the blocker released when the job and its download are done',
      40_000,
    );
    expect(calls(idle, 'powerSaveBlocker.start').length).toBe(calls(idle, 'powerSaveBlocker.stop').length);
    const db = join(dataDir, 'accounts', 'demo', 'atelier.db');
    expect(existsSync(db)).toBe(true);
    expect(existsSync(`${db}-wal`)).toBe(true);

    const { exit, journal } = await quitAndWait(app, (a) => a.call('clickTray', 'Quit Atelier'));
    expect(exit.code).toBe(0);
    expect(journal.violations).toEqual([]);
    // SQLite removes the write-ahead log when the last connection closes cleanly.
    expect(existsSync(`${db}-wal`)).toBe(false);
    expect(statSync(db).size).toBeGreaterThan(0);
  });

  it.runIf(process.platform === 'linux')('quits when the window closes where no tray host shows the icon', async () => {
    const app = start({ dataDir: newDataDir(), trayHost: false });
    await app.waitFor(pageShown, 'the window showing the page');
    await app.call('closeWindow');
    const exit = await app.exited;
    expect(exit.code).toBe(0);
    const journal = app.journal();
    expect(journal.violations).toEqual([]);
    expect(calls(journal, 'dialog.showMessageBox')).toEqual([]);
    expect(journal.journal.map((e) => e.what)).toContain('window destroyed');
  });

  it('sets a damaged settings.json aside, starts with defaults and says so once', async () => {
    const dataDir = newDataDir();
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(join(dataDir, 'settings.json'), '{"settings": {"theme": "da');
    const app = start({ dataDir });
    const ready = await app.waitFor(
      (s) => pageShown(s) && calls(s, 'dialog.showMessageBox').length > 0,
      'the window and the notice',
    );
    expect(ready.violations).toEqual([]);
    const notices = calls(ready, 'dialog.showMessageBox').map(
      (c) => c.detail as { message: string; parented: boolean },
    );
    expect(notices).toEqual([
      expect.objectContaining({ message: 'Your settings could not be read, so the defaults are used', parented: true }),
    ]);
    const aside = readdirSync(dataDir).filter((name) => /^settings\.corrupt-\d+\.json$/.test(name));
    expect(aside).toHaveLength(1);
    expect(readFileSync(join(dataDir, aside[0]!), 'utf8')).toBe('{"settings": {"theme": "da');
    const read = await app.call('invokeFromPage', 'settings:get', undefined);
    expect(read, JSON.stringify(read)).toMatchObject({ ok: true, value: { theme: 'system' } });
    expect((await quitAndWait(app, (a) => a.call('clickTray', 'Quit Atelier'))).exit.code).toBe(0);

    // Said once: the next start is quiet.
    const again = start({ dataDir });
    const quiet = await again.waitFor(pageShown, 'the window');
    expect(calls(quiet, 'dialog.showMessageBox')).toEqual([]);
  });

  it('ends a start that cannot make its data folder with an error box and exit 1, no window', async () => {
    const blocker = join(tempDir('data'), 'a-file');
    writeFileSync(blocker, 'not a folder');
    const app = start({ dataDir: join(blocker, 'Atelier') });
    const exit = await app.exited;
    expect(exit.code).toBe(1);
    const journal = app.journal();
    expect(journal.violations).toEqual([]);
    expect(journal.windows).toEqual([]);
    const boxes = calls(journal, 'dialog.showErrorBox').map(
      (c) => c.detail as { title: string; content: string; shownAsWindow: boolean },
    );
    expect(boxes).toHaveLength(1);
    expect(boxes[0]).toMatchObject({ title: 'Atelier could not start', shownAsWindow: true });
    expect(boxes[0]!.content).toContain('Opening the data folder failed:');
    expect(boxes[0]!.content).toMatch(/ENOTDIR|EEXIST|ENOENT/);
    expect(boxes[0]!.content).toContain('No log could be written');
  });

  it('ends a start that fails after taking the lock with an error box naming the log, exit 1 and the lock released', async () => {
    const dataDir = newDataDir();
    // settings.json as a folder: reading it fails with EISDIR, which is not a damaged file to set aside.
    mkdirSync(join(dataDir, 'settings.json'), { recursive: true });
    const app = start({ dataDir });
    const exit = await app.exited;
    expect(exit.code).toBe(1);
    const journal = app.journal();
    expect(journal.violations).toEqual([]);
    expect(journal.windows).toEqual([]);
    const what = journal.journal.map((entry) => entry.what);
    expect(what.indexOf('app.releaseSingleInstanceLock')).toBeGreaterThan(
      what.indexOf('app.requestSingleInstanceLock'),
    );
    expect(what.indexOf('app.releaseSingleInstanceLock')).toBeLessThan(what.indexOf('dialog.showErrorBox'));
    expect(journal.lockHeld).toBe(false);
    const box = calls(journal, 'dialog.showErrorBox')[0]?.detail as { title: string; content: string };
    const logFile = join(dataDir, 'logs', 'atelier.log');
    expect(box.content).toContain('Reading the settings failed:');
    expect(box.content).toContain('EISDIR');
    expect(box.content).toContain(`Details are in the log: ${logFile}`);
    expect(readFileSync(logFile, 'utf8')).toContain('Atelier could not start');

    // The next launch is not sent to a dead process: with the folder fixed, it starts.
    rmSync(join(dataDir, 'settings.json'), { recursive: true });
    const next = start({ dataDir });
    await next.waitFor(pageShown, 'the window after the fix');
  });

  it('runs packaged: resourcesPath for the tray, the app from app.asar, no developer tools', async () => {
    const layout = packagedLayout();
    const dataDir = newDataDir();
    const app = start({ dataDir, layout });
    const ready = await app.waitFor(pageShown, 'the packaged window');
    expect(ready.violations).toEqual([]);
    expect(ready.trays[0]?.image).toBe(join(layout.resourcesPath!, 'tray', trayImage));
    const win = mainWindow(ready)!;
    expect(win.webPreferences).toMatchObject({
      devTools: false,
      preload: join(layout.appPath, 'out', 'preload', 'index.cjs'),
    });
    const page = await app.call<{ status: number; text: string }>('fetch', 'atelier://app/index.html');
    expect(page.status).toBe(200);
    expect(readFileSync(join(layout.appPath, 'out', 'renderer', 'index.html'), 'utf8')).toBe(page.text);
    const viewMenu = (ready.applicationMenu ?? []).find((m) => typeof m !== 'string' && m.label.includes('View'));
    expect(JSON.stringify(viewMenu)).not.toContain('toggleDevTools');
    expect(ready.loadedModules.some((url) => url.includes('/app.asar/out/main/index.js'))).toBe(true);
    expect(heavy(ready.loadedModules)).toEqual([]);
    if (process.platform === 'win32') {
      expect(calls(ready, 'app.setAppUserModelId')[0]?.detail).toBe('app.atelier.desktop');
    }
    expect((await quitAndWait(app, (a) => a.call('clickTray', 'Quit Atelier'))).exit.code).toBe(0);
  });

  it('reloads a page that fails to load once, then shows the load-problem page with Reload and the log', async () => {
    const layout = packagedLayout({ dropIndexHtml: true });
    const dataDir = newDataDir();
    const app = start({ dataDir, layout });
    const shown = await app.waitFor(
      (s) => mainWindow(s)?.visible === true && mainWindow(s)?.url === 'atelier://app/load-problem',
      'the load-problem page',
    );
    expect(shown.violations).toEqual([]);
    expect(mainWindow(shown)!.loads).toEqual([
      'atelier://app/index.html',
      'atelier://app/index.html',
      'atelier://app/load-problem',
    ]);
    const html = (await app.call<string>('pageHtml')) ?? '';
    expect(html).toContain('href="atelier://app/index.html"');
    expect(html).toContain('Reload');
    expect(html).toContain(join(dataDir, 'logs', 'atelier.log'));
    expect(readFileSync(join(dataDir, 'logs', 'atelier.log'), 'utf8')).toContain('showing the load-problem page');
  });
});

// The Electron shell: lifecycle, the secure window, the IPC binding. Thin glue around the core.
import { app, BrowserWindow, session } from 'electron';
import { join } from 'node:path';
import { createCore } from '../core/core.ts';
import { defaultDataDir } from '../core/paths.ts';
import { bindIpc } from './ipc-binding.ts';
import { registerAppScheme, serveRenderer } from './app-protocol.ts';
import { createMainWindow } from './window.ts';

export async function startShell(): Promise<void> {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  registerAppScheme();
  app.setPath('userData', defaultDataDir());
  await app.whenReady();

  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  serveRenderer(join(import.meta.dirname, '..', 'renderer'));

  const core = await createCore({
    dataDir: app.getPath('userData'),
    host: {
      kind: 'electron',
      appVersion: app.getVersion(),
      chromiumVersion: process.versions.chrome ?? null,
      electronVersion: process.versions.electron ?? null,
    },
  });
  const unbind = bindIpc(core, () => BrowserWindow.getAllWindows());
  let win = createMainWindow(join(import.meta.dirname, '..', 'preload'));

  app.on('second-instance', () => {
    if (win.isDestroyed()) win = createMainWindow(join(import.meta.dirname, '..', 'preload'));
    if (win.isMinimized()) win.restore();
    win.focus();
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('before-quit', () => {
    unbind();
    void core.close();
  });
}

// Binds the core's dispatcher to ipcMain and forwards core events to the app's windows.
// Every call is checked to come from one of our own frames before it reaches the core.
import { ipcMain, type BrowserWindow, type WebFrameMain } from 'electron';
import type { Core } from '../core/core.ts';
import { INVOKE_IPC, EVENT_IPC } from '../preload/ipc-names.ts';
import { isAppUrl } from './app-protocol.ts';

function senderIsOurs(frame: WebFrameMain | null): boolean {
  return frame !== null && isAppUrl(frame.url);
}

export function bindIpc(core: Core, windows: () => BrowserWindow[]): () => void {
  ipcMain.handle(INVOKE_IPC, async (event, channel: unknown, args: unknown) => {
    if (!senderIsOurs(event.senderFrame)) {
      return { ok: false, error: { code: 'invalid_argument', message: 'Refused: the caller is not an Atelier window.' } };
    }
    return core.dispatch(channel, args);
  });
  const unsubscribe = core.events.subscribe((name, payload) => {
    for (const win of windows()) {
      if (!win.isDestroyed()) win.webContents.send(EVENT_IPC, name, payload);
    }
  });
  return () => {
    ipcMain.removeHandler(INVOKE_IPC);
    unsubscribe();
  };
}

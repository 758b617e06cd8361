// Binds the core's dispatcher to ipcMain and forwards core events to the app's windows.
// Every call is checked to come from the top frame of one of our windows showing our own page
// before it reaches the core (which then validates the arguments against the contract).
import { ipcMain, type BrowserWindow } from 'electron';
import type { Core } from '../core/core.ts';
import { INVOKE_IPC, EVENT_IPC } from '../preload/ipc-names.ts';
import { isAppUrl } from './app-url.ts';
import { senderRefusal } from './sender-check.ts';

export function bindIpc(core: Core, windows: () => BrowserWindow[], onRefused: (reason: string) => void): () => void {
  ipcMain.handle(INVOKE_IPC, async (event, channel: unknown, args: unknown) => {
    const refusal = senderRefusal(
      {
        frame: event.senderFrame,
        fromOurWindow: windows().some((win) => !win.isDestroyed() && win.webContents === event.sender),
      },
      isAppUrl,
    );
    if (refusal) {
      onRefused(`IPC refused (${refusal})`);
      return {
        ok: false,
        error: { code: 'invalid_argument', message: 'Refused: the caller is not an Atelier window.' },
      };
    }
    return core.dispatch(channel, args);
  });
  const unsubscribe = core.events.subscribe((name, payload) => {
    for (const win of windows()) {
      // Events only reach our own page, never whatever a window might be showing instead.
      if (!win.isDestroyed() && isAppUrl(win.webContents.getURL())) win.webContents.send(EVENT_IPC, name, payload);
    }
  });
  return () => {
    ipcMain.removeHandler(INVOKE_IPC);
    unsubscribe();
  };
}

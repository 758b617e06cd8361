// Preload: exposes window.atelier (typed invoke and on, built from the contract), nothing else.
// Sandboxed preloads cannot load npm modules, so this file imports types only; main validates.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import type { AtelierBridge } from '../contract/ipc.ts';
import { EVENT_IPC, INVOKE_IPC } from './ipc-names.ts';

const bridge: AtelierBridge = {
  invoke: (channel, args) => ipcRenderer.invoke(INVOKE_IPC, channel, args),
  on(event, listener) {
    const handler = (_e: IpcRendererEvent, name: string, payload: unknown) => {
      if (name === event) (listener as (p: unknown) => void)(payload);
    };
    ipcRenderer.on(EVENT_IPC, handler);
    return () => void ipcRenderer.removeListener(EVENT_IPC, handler);
  },
};

// Only our own page gets the bridge (main refuses other senders anyway; this keeps it unseen).
if (location.protocol === 'atelier:' && location.host === 'app') contextBridge.exposeInMainWorld('atelier', bridge);

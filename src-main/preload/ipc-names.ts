// The two raw Electron IPC channel names that carry the whole contract.
export const INVOKE_IPC = 'atelier:invoke';
export const EVENT_IPC = 'atelier:event';

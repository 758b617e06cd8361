// The browser-mode transport: the contract over a WebSocket to the core in Node.
// Only lib/ipc.ts uses it; the rest of the renderer cannot tell which transport runs.
import type { AtelierBridge } from '@contract/ipc.ts';
import { BRIDGE_PATH, type BridgeMessage } from '@contract/bridge-protocol.ts';
import type { Result } from '@contract/errors.ts';

export function createWebSocketBridge(url = `ws://${location.host}${BRIDGE_PATH}`): AtelierBridge {
  const pending = new Map<number, (result: Result<unknown>) => void>();
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  let nextId = 1;
  let socket: Promise<WebSocket> | null = null;

  const connect = (): Promise<WebSocket> =>
    new Promise((resolve, reject) => {
      const ws = new WebSocket(url);
      ws.onopen = () => resolve(ws);
      ws.onerror = () => reject(new Error('The connection to Atelier was refused.'));
      ws.onmessage = (message) => {
        const data = JSON.parse(String(message.data)) as BridgeMessage;
        if (data.kind === 'result') {
          pending.get(data.id)?.(data.result);
          pending.delete(data.id);
        } else {
          for (const listener of listeners.get(data.event) ?? []) listener(data.payload);
        }
      };
      ws.onclose = () => {
        socket = null;
        for (const resolvePending of pending.values()) {
          resolvePending({
            ok: false,
            error: { code: 'network', message: 'The connection to Atelier closed. Reload the page.' },
          });
        }
        pending.clear();
      };
    });

  const ready = () =>
    (socket ??= connect().catch((error: unknown) => {
      socket = null;
      throw error;
    }));
  // Connect at once: the handshake overlaps the rest of the start (the bundle's evaluation, the
  // first mount) instead of following it. A refusal here is reported by the first request.
  void ready().catch(() => {});

  return {
    async invoke(channel, args) {
      let ws: WebSocket;
      try {
        ws = await ready();
      } catch (error) {
        return { ok: false, error: { code: 'network', message: (error as Error).message } };
      }
      const id = nextId++;
      return new Promise((resolve) => {
        pending.set(id, resolve as (result: Result<unknown>) => void);
        ws.send(JSON.stringify({ id, channel, args }));
      });
    },
    on(event, listener) {
      const set = listeners.get(event) ?? new Set();
      set.add(listener as (payload: unknown) => void);
      listeners.set(event, set);
      void ready().catch(() => {});
      return () => set.delete(listener as (payload: unknown) => void);
    },
  };
}

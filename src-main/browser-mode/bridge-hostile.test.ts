// No message a client sends over the browser-mode bridge can end the process: an oversized frame,
// malformed JSON, a wrong shape, an unknown channel or a handler that throws. Each is answered (or
// its connection closed) and the server keeps serving the next client.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { BRIDGE_PATH, type BridgeMessage } from '../contract/bridge-protocol.ts';
import { createCore, type Core } from '../core/core.ts';
import { createMemoryStore } from '../core/settings/store.ts';
import { tokenCookieName } from './guard.ts';
import { startBrowserMode, type BrowserModeServer } from './server.ts';

let dataDir: string;
let core: Core;
let server: BrowserModeServer;
const token = 'f'.repeat(64);
const crashes: unknown[] = [];
const onCrash = (error: unknown) => void crashes.push(error);

function connect(): Promise<WebSocket> {
  const origin = `http://127.0.0.1:${server.port}`;
  const ws = new WebSocket(`ws://127.0.0.1:${server.port}${BRIDGE_PATH}`, {
    headers: { Origin: origin, Cookie: `${tokenCookieName(server.port)}=${token}` },
  });
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

function nextResult(ws: WebSocket): Promise<BridgeMessage> {
  return new Promise((resolve) => {
    const listener = (data: Buffer) => {
      const message = JSON.parse(String(data)) as BridgeMessage;
      if (message.kind !== 'result') return;
      ws.off('message', listener);
      resolve(message);
    };
    ws.on('message', listener);
  });
}

const closed = (ws: WebSocket): Promise<number> => new Promise((resolve) => ws.once('close', (code) => resolve(code)));

async function call(ws: WebSocket, id: number, channel: unknown, args?: unknown): Promise<BridgeMessage> {
  const result = nextResult(ws);
  ws.send(JSON.stringify({ id, channel, args }));
  return result;
}

beforeAll(async () => {
  process.on('uncaughtException', onCrash);
  process.on('unhandledRejection', onCrash);
  dataDir = mkdtempSync(join(tmpdir(), 'atelier-bridge-'));
  core = await createCore({
    dataDir,
    host: { kind: 'browser', appVersion: '0.0.0-test', chromiumVersion: null, electronVersion: null },
    store: createMemoryStore(),
  });
  server = await startBrowserMode({ core, rendererDir: dataDir, token });
});
afterAll(async () => {
  await server.close();
  await core.close();
  rmSync(dataDir, { recursive: true, force: true });
  process.off('uncaughtException', onCrash);
  process.off('unhandledRejection', onCrash);
});

describe('the browser-mode bridge under hostile messages', () => {
  it('closes a connection that sends one oversized message, and keeps serving others', async () => {
    const ws = await connect();
    ws.on('error', () => {}); // the client side sees the close; its own error is not the point here
    const code = closed(ws);
    ws.send('x'.repeat(6 * 1024 * 1024));
    expect(await code).toBe(1009); // "message too big"
    await new Promise((r) => setTimeout(r, 50));
    expect(crashes).toEqual([]);
    const other = await connect();
    expect(await call(other, 1, 'app:info')).toMatchObject({ kind: 'result', id: 1, result: { ok: true } });
    other.close();
  });

  it('answers an unknown channel and bad arguments with a Result, and closes on malformed JSON', async () => {
    const ws = await connect();
    expect(await call(ws, 1, 'no:such-channel')).toMatchObject({
      result: { ok: false, error: { code: 'invalid_argument' } },
    });
    expect(await call(ws, 2, { toString: 1 })).toMatchObject({ result: { ok: false } });
    expect(await call(ws, 3, 'settings:update', { __proto__: { theme: 'dark' }, constructor: 1 })).toMatchObject({
      result: { ok: false, error: { code: 'invalid_argument' } },
    });
    const code = closed(ws);
    ws.send('{not json');
    expect(await code).toBe(1003);
    for (const garbage of ['null', '[]', '"text"', '{"id":"1"}', '1e400']) {
      const next = await connect();
      const done = closed(next);
      next.send(garbage);
      expect(await done).toBe(1003);
    }
    expect(crashes).toEqual([]);
  });

  it('survives a handler that throws outside the dispatcher and a result it cannot serialise', async () => {
    const realDispatch = core.dispatch;
    const ws = await connect();
    try {
      core.dispatch = () => {
        throw new Error('a bug in the core');
      };
      expect(await call(ws, 7, 'app:info')).toMatchObject({
        id: 7,
        result: { ok: false, error: { code: 'internal' } },
      });
      core.dispatch = async () => ({ ok: true, value: 10n });
      expect(await call(ws, 8, 'app:info')).toMatchObject({
        id: 8,
        result: { ok: false, error: { code: 'internal' } },
      });
    } finally {
      core.dispatch = realDispatch;
    }
    expect(await call(ws, 9, 'app:info')).toMatchObject({ id: 9, result: { ok: true } });
    ws.close();
    expect(crashes).toEqual([]);
  });
});

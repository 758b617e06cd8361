// Browser mode: the real core in Node, the built renderer served to a normal browser, and the
// contract carried over a WebSocket. Loopback only, token-gated, Host and Origin checked.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { BRIDGE_PATH, type BridgeMessage, type BridgeRequest } from '../contract/bridge-protocol.ts';
import type { Core } from '../core/core.ts';
import {
  cookieToken,
  hostAllowed,
  originAllowed,
  RESPONSE_HARDENING_HEADERS,
  tokenCookie,
  tokenMatches,
  type Guard,
} from './guard.ts';
import { serveStatic } from './static-files.ts';
import { RENDERER_SECURITY_HEADERS } from '../contract/csp.ts';

export interface BrowserModeOptions {
  core: Core;
  rendererDir: string;
  port?: number;
  token?: string;
  /** Extra routes (e.g. local media) tried after the guard and before static files. */
  routes?: (req: IncomingMessage, res: ServerResponse, url: URL) => boolean | Promise<boolean>;
}

export interface BrowserModeServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * The largest message a client may send: a 1 MiB upload chunk as base64 plus its framing fits with
 * room to spare (uploads never travel in one message). A larger one closes that connection (1009).
 */
const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

function refuse(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(message);
}

export async function startBrowserMode(options: BrowserModeOptions): Promise<BrowserModeServer> {
  const guard: Guard = { port: 0, token: options.token ?? randomBytes(32).toString('hex') };
  const sockets = new Set<WebSocket>();

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    for (const [name, value] of Object.entries(RESPONSE_HARDENING_HEADERS)) res.setHeader(name, value);
    if (!hostAllowed(req, guard)) return refuse(res, 421, 'Unknown host.');
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${guard.port}`);
    const queryToken = url.searchParams.get('token');
    if (queryToken !== null) {
      if (!tokenMatches(queryToken, guard)) return refuse(res, 403, 'Wrong token: open the URL printed by Atelier.');
      // Trade the URL token for a cookie and drop it from the address bar and history.
      res.writeHead(303, { 'Set-Cookie': tokenCookie(guard), Location: '/', 'Cache-Control': 'no-store' });
      return void res.end();
    }
    if (!tokenMatches(cookieToken(req, guard), guard)) {
      return refuse(res, 403, 'Missing token: open the URL printed by Atelier.');
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return refuse(res, 405, 'Method not allowed.');
    if (options.routes && (await options.routes(req, res, url))) return;
    // The page itself gets the CSP, Permissions-Policy and friends, as in the Electron window.
    for (const [name, value] of Object.entries(RENDERER_SECURITY_HEADERS)) res.setHeader(name, value);
    if (!serveStatic(options.rendererDir, url.pathname, res)) {
      // Single-page app: unknown paths get the shell.
      if (!serveStatic(options.rendererDir, '/', res)) refuse(res, 404, 'Not found. Was the renderer built?');
    }
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) refuse(res, 500, 'Internal error.');
      else res.destroy();
    });
  });

  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  server.on('upgrade', (req, socket, head) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    const allowed =
      path === BRIDGE_PATH &&
      hostAllowed(req, guard) &&
      originAllowed(req, guard) &&
      tokenMatches(cookieToken(req, guard), guard);
    if (!allowed) {
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });

  const unsubscribe = options.core.events.subscribe((event, payload) => {
    const message = JSON.stringify({ kind: 'event', event, payload } satisfies BridgeMessage);
    for (const ws of sockets) if (ws.readyState === ws.OPEN) ws.send(message);
  });

  const internal = { ok: false as const, error: { code: 'internal' as const, message: 'Internal error.' } };

  /** One request in, one result out; nothing a client sends can throw past this. */
  const answer = async (ws: WebSocket, data: RawData): Promise<void> => {
    let request: BridgeRequest;
    try {
      request = JSON.parse(String(data)) as BridgeRequest;
      if (typeof request !== 'object' || request === null || !Number.isSafeInteger(request.id)) throw new Error();
    } catch {
      ws.close(1003, 'Malformed message');
      return;
    }
    let text: string;
    try {
      // dispatch turns every handler problem into data; this only guards against its own bugs.
      const result = await options.core.dispatch(request.channel, request.args);
      text = JSON.stringify({ kind: 'result', id: request.id, result } satisfies BridgeMessage);
    } catch {
      text = JSON.stringify({ kind: 'result', id: request.id, result: internal } satisfies BridgeMessage);
    }
    if (ws.readyState === ws.OPEN) ws.send(text);
  };

  wss.on('error', () => {}); // a failed upgrade concerns that one client only
  wss.on('connection', (ws: WebSocket) => {
    sockets.add(ws);
    ws.on('close', () => sockets.delete(ws));
    // An oversized or broken frame: ws itself closes the connection with the reason (1009, 1002…)
    // and reports it here; without a listener that report would be thrown and end the process.
    // Nothing more to do (terminating here could cut the close frame off before it is sent).
    ws.on('error', () => {});
    ws.on('message', (data) => void answer(ws, data).catch(() => ws.terminate()));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  guard.port = (server.address() as AddressInfo).port;

  return {
    port: guard.port,
    url: `http://127.0.0.1:${guard.port}/?token=${guard.token}`,
    async close() {
      unsubscribe();
      for (const ws of sockets) ws.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

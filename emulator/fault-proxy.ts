// A bad network in front of the emulator, for the fault soak test and the bench: an HTTP reverse
// proxy on loopback that, from seeded dice, answers a share of API requests itself (503 or 429 NOK
// envelopes, the emulator never sees them), resets connections before forwarding (never arrived) or
// after (arrived, answer lost), delays everything by 0–300 ms, cuts media transfers mid-body, and
// can hold the answers of chosen requests (they reach the emulator; the client never hears back).
// Every request is logged with its fate, and a POST with its body and the emulator's answer, so a
// test knows which request made which job even when the client never learnt it.
import { createHash } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { nokEnvelope } from './envelope.ts';

/** Shares (0–1) of requests each fault hits; the dice are seeded, so a mix repeats. */
export interface FaultMix {
  /** API requests answered 503 by the proxy (a NOK envelope; never forwarded). */
  serverError: number;
  /** API requests answered 429 with `Retry-After` by the proxy (never forwarded). */
  rateLimit: number;
  retryAfterSeconds: number;
  /** API requests whose connection is reset before forwarding (the service never saw them). */
  resetBefore: number;
  /** API requests forwarded, then their connection reset instead of the answer (fate unknown to the client). */
  resetAfter: number;
  /** Media transfers cut after about half their body. */
  mediaCut: number;
  /** Every request waits a uniform [min, max] ms before it is handled. */
  latencyMs: { min: number; max: number };
}

export const NO_FAULTS: FaultMix = {
  serverError: 0,
  rateLimit: 0,
  retryAfterSeconds: 2,
  resetBefore: 0,
  resetAfter: 0,
  mediaCut: 0,
  latencyMs: { min: 0, max: 0 },
};

/** Issue 28's network: 5 % 503, 2 % resets, 2 % 429 `Retry-After: 2`, 0–300 ms, 1 % of media cut. */
export const BAD_NETWORK: FaultMix = {
  serverError: 0.05,
  rateLimit: 0.02,
  retryAfterSeconds: 2,
  resetBefore: 0.02,
  resetAfter: 0,
  mediaCut: 0.01,
  latencyMs: { min: 0, max: 300 },
};

export type Fate =
  | 'forwarded' // answered by the emulator, answer delivered
  | 'server-error' // 503 from the proxy
  | 'rate-limited' // 429 from the proxy
  | 'reset-before' // connection reset, never forwarded
  | 'reset-after' // forwarded, answer replaced by a reset
  | 'held' // forwarded, answer kept back (the client waits until it gives up or the proxy closes)
  | 'cut' // media forwarded, body cut mid-way
  | 'upstream-failed'; // the emulator could not be reached (502)

export interface ProxyRecord {
  seq: number;
  /** Epoch ms when the request arrived at the proxy (on the `now` clock). */
  at: number;
  method: string;
  /** Path and query as the client sent them. */
  url: string;
  media: boolean;
  fate: Fate;
  /** What the client got: an HTTP status, or null for a reset, a hold or a cut. */
  status: number | null;
  /** The emulator's status when forwarded. */
  upstreamStatus: number | null;
  latencyMs: number;
  /** POST bodies (parsed JSON) and the emulator's answer to them: which request made which job. */
  body?: unknown;
  answer?: unknown;
}

export interface HoldRule {
  method: string;
  /** Path prefix to match (e.g. `/images/`); any path when absent. */
  pathPrefix?: string;
  count: number;
}

export interface FaultProxyOptions {
  /** The emulator's base URL. */
  target: string;
  seed: number;
  mix?: FaultMix;
  port?: number;
  /** The clock of the log's `at` (default Date.now; a test on the emulator's virtual clock passes that). */
  now?: () => number;
}

export interface FaultProxy {
  url: string;
  port: number;
  /** Every request so far, in arrival order. */
  records(): readonly ProxyRecord[];
  setMix(mix: FaultMix): void;
  /** The next `count` matching API requests are forwarded and their answers kept back. */
  hold(rule: HoldRule): void;
  /** Requests whose answers were held (forwarded; the emulator answered; the client never heard). */
  held(): readonly ProxyRecord[];
  /** Resolves once `count` answers are held (or rejects after `timeoutMs`). */
  whenHeld(count: number, timeoutMs: number): Promise<void>;
  /** Resets the held requests' connections (their client sees a reset). */
  dropHeld(): void;
  close(): Promise<void>;
}

/** Uniform [0, 1) from the seed and a request's identity: the k-th sending of one request always meets the same fate. */
export function dice(seed: number, key: string): number {
  const digest = createHash('sha256').update(`${seed}\0${key}`).digest();
  return digest.readUInt32BE(0) / 4294967296;
}

/** What the dice decide for one API request (media only ever get `cut` or `forwarded`). */
export function decideFate(mix: FaultMix, roll: number, media: boolean): Fate {
  if (media) return roll < mix.mediaCut ? 'cut' : 'forwarded';
  const steps: [Fate, number][] = [
    ['reset-before', mix.resetBefore],
    ['server-error', mix.serverError],
    ['rate-limited', mix.rateLimit],
    ['reset-after', mix.resetAfter],
  ];
  let edge = 0;
  for (const [fate, share] of steps) {
    edge += share;
    if (roll < edge) return fate;
  }
  return 'forwarded';
}

const isMedia = (path: string): boolean => path.startsWith('/media/');

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function parseJson(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

function reset(socket: Socket): void {
  if (socket.destroyed) return;
  if (typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy();
  else socket.destroy();
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

export async function startFaultProxy(options: FaultProxyOptions): Promise<FaultProxy> {
  const target = new URL(options.target);
  let mix = options.mix ?? NO_FAULTS;
  const now = options.now ?? Date.now;
  const log: ProxyRecord[] = [];
  const seen = new Map<string, number>();
  const holds: HoldRule[] = [];
  const heldSockets = new Map<ProxyRecord, Socket>();
  const heldRecords: ProxyRecord[] = [];
  const upstreamAgent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  let ownOrigin = '';

  const takeHold = (method: string, path: string): boolean => {
    const rule = holds.find((h) => h.count > 0 && h.method === method && path.startsWith(h.pathPrefix ?? ''));
    if (!rule) return false;
    rule.count -= 1;
    return true;
  };

  const forward = (
    req: IncomingMessage,
    body: Buffer,
  ): Promise<{ status: number; headers: http.IncomingHttpHeaders; stream: IncomingMessage }> =>
    new Promise((resolve, reject) => {
      const headers = { ...req.headers, host: target.host };
      delete headers['connection'];
      const upstream = http.request(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers, agent: upstreamAgent },
        (answer) => resolve({ status: answer.statusCode ?? 502, headers: answer.headers, stream: answer }),
      );
      upstream.on('error', reject);
      upstream.end(body);
    });

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const method = req.method ?? 'GET';
    const url = req.url ?? '/';
    const media = isMedia(url);
    const body = await readBody(req);
    const identity = `${method} ${url} ${createHash('sha256').update(body).digest('hex')}`;
    const nth = seen.get(identity) ?? 0;
    seen.set(identity, nth + 1);
    const key = `${identity}#${nth}`;
    const { min, max } = mix.latencyMs;
    const latencyMs = Math.round(min + dice(options.seed, `${key}:latency`) * (max - min));
    const record: ProxyRecord = {
      seq: log.length,
      at: now(),
      method,
      url,
      media,
      fate: 'forwarded',
      status: null,
      upstreamStatus: null,
      latencyMs,
    };
    if (method === 'POST') record.body = parseJson(body);
    log.push(record);
    const controlRoute = url.startsWith('/__emulator/');
    const hold = !media && !controlRoute && takeHold(method, url);
    record.fate = hold || controlRoute ? 'forwarded' : decideFate(mix, dice(options.seed, `${key}:fate`), media);
    if (hold) record.fate = 'held';
    if (latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, latencyMs));

    switch (record.fate) {
      case 'reset-before':
        reset(req.socket);
        return;
      case 'server-error':
        record.status = 503;
        sendJson(res, 503, nokEnvelope('service_unavailable', 'The service is temporarily unavailable.'));
        return;
      case 'rate-limited':
        record.status = 429;
        sendJson(res, 429, nokEnvelope('rate_limited', 'Too many requests; slow down.'), {
          'retry-after': String(mix.retryAfterSeconds),
        });
        return;
      default:
        break;
    }

    let answer: Awaited<ReturnType<typeof forward>>;
    try {
      answer = await forward(req, body);
    } catch {
      record.fate = 'upstream-failed';
      record.status = 502;
      sendJson(res, 502, nokEnvelope('internal_error', 'The proxy could not reach the service.'));
      return;
    }
    record.upstreamStatus = answer.status;

    if (media) {
      const headers: http.OutgoingHttpHeaders = { ...answer.headers };
      delete headers['connection'];
      delete headers['keep-alive'];
      res.writeHead(answer.status, headers);
      if (record.fate !== 'cut') {
        record.status = answer.status;
        answer.stream.pipe(res);
        return;
      }
      // Cut after about half the body (at least one chunk goes through), with the full length announced.
      const length = Number(answer.headers['content-length'] ?? 0);
      const cutAt = Math.max(1, Math.floor(length / 2));
      let sent = 0;
      answer.stream.on('data', (chunk: Buffer) => {
        if (sent >= cutAt) return;
        const part = chunk.subarray(0, Math.max(1, cutAt - sent));
        sent += part.length;
        res.write(part);
        if (sent >= cutAt) {
          answer.stream.destroy();
          setTimeout(() => reset(req.socket), 5);
        }
      });
      answer.stream.on('end', () => reset(req.socket));
      return;
    }

    const raw = await readBody(answer.stream);
    const text = raw.toString('utf8');
    if (method === 'POST') record.answer = parseJson(raw);
    if (record.fate === 'reset-after') {
      reset(req.socket);
      return;
    }
    if (record.fate === 'held') {
      heldRecords.push(record);
      heldSockets.set(record, req.socket);
      req.socket.on('close', () => heldSockets.delete(record));
      return;
    }
    // Media URLs in answers point at the proxy, so transfers cross the same network.
    const rewritten = Buffer.from(ownOrigin ? text.split(options.target).join(ownOrigin) : text, 'utf8');
    const headers: http.OutgoingHttpHeaders = { ...answer.headers, 'content-length': String(rewritten.length) };
    delete headers['connection'];
    delete headers['keep-alive'];
    delete headers['transfer-encoding'];
    record.status = answer.status;
    res.writeHead(answer.status, headers);
    res.end(rewritten);
  };

  const server = http.createServer((req, res) => {
    handle(req, res).catch(() => reset(req.socket));
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  ownOrigin = `http://127.0.0.1:${port}`;

  return {
    url: ownOrigin,
    port,
    records: () => log,
    setMix(next) {
      mix = next;
    },
    hold(rule) {
      if (!Number.isInteger(rule.count) || rule.count < 1)
        throw new RangeError('hold: count must be a positive integer');
      holds.push({ ...rule });
    },
    held: () => heldRecords,
    async whenHeld(count, timeoutMs) {
      const until = Date.now() + timeoutMs;
      while (heldRecords.length < count) {
        if (Date.now() > until) throw new Error(`fault proxy: ${heldRecords.length} of ${count} answers held`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    dropHeld() {
      for (const socket of heldSockets.values()) reset(socket);
      heldSockets.clear();
    },
    async close() {
      for (const socket of heldSockets.values()) reset(socket);
      heldSockets.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      upstreamAgent.destroy();
    },
  };
}

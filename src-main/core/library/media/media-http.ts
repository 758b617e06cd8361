// The one way the library talks to media hosts: plain node:http(s) requests with no service
// credentials (media URLs are signed links), no automatic retries (resume is ours), no
// decompression (byte offsets must be the file's own), up to 5 redirects, and the limits got had
// (connect, the wait for the headers, an idle socket). Not got: its request and stream layer
// cost ~0.3 s of CPU over bench 4's 200 files of 2 MB (~10 % of the downloader's), for nothing
// downloads use (retries, hooks, parsed bodies).
import { lookup, type LookupOptions } from 'node:dns';
import type { ClientRequest, IncomingHttpHeaders, IncomingMessage, RequestOptions } from 'node:http';
import { isIP, type LookupFunction } from 'node:net';
import type { Readable } from 'node:stream';

export interface MediaResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body; destroy it when not reading it. */
  body: Readable;
}

export type MediaFetch = (url: string, headers: Record<string, string>, signal: AbortSignal) => Promise<MediaResponse>;

type Requester = (url: URL, options: RequestOptions) => ClientRequest;

// node:http and node:https are taken at the first media request, not at start-up, and as the
// built-in modules themselves: an ESM import builds their module facades, which evaluates every
// lazy export (undici for http's WebSocket, the bundled root certificates for https), ~0.3 s of a
// loaded machine's main thread for nothing the downloads use.
let requesters: { http: Requester; https: Requester } | null = null;
const loadRequesters = (): { http: Requester; https: Requester } => {
  if (requesters) return requesters;
  const http = process.getBuiltinModule('node:http');
  const https = process.getBuiltinModule('node:https');
  requesters = {
    http: (url, options) => http.request(url, options),
    https: (url, options) => https.request(url, options),
  };
  return requesters;
};

/** Statuses whose Location is followed (GET stays GET for all of them: media requests are GETs). */
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 5;

/** Connect bounds a dead host, response the wait for the headers, socket an idle body (the limits got had). */
export interface MediaTimeouts {
  connectMs: number;
  responseMs: number;
  socketMs: number;
}

export const MEDIA_TIMEOUTS: MediaTimeouts = { connectMs: 15_000, responseMs: 30_000, socketMs: 60_000 };

const BASE_HEADERS = { 'user-agent': 'Atelier', 'accept-encoding': 'identity' } as const;

/** Refuses anything but http(s): a server-supplied URL must not reach file: or other schemes. */
export function assertMediaUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error('The media link is not a valid URL.');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    throw new Error('The media link is not an http(s) URL.');
  if (parsed.username || parsed.password) throw new Error('The media link carries credentials; refused.');
  return parsed;
}

/** Loopback, private (RFC 1918, ULA), link-local (cloud metadata too), CGNAT-free "this host" ranges. */
export function isLocalAddress(address: string): boolean {
  const ip = address.replace(/^\[|\]$/g, '').toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(ip)?.[1];
  if (mapped) return isLocalAddress(mapped);
  if (isIP(ip) === 4) {
    const [a = 0, b = 0] = ip.split('.').map(Number);
    return (
      a === 127 ||
      a === 10 ||
      a === 0 ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 169 && b === 254)
    );
  }
  if (isIP(ip) === 6) return ip === '::1' || ip === '::' || /^f[cd]/.test(ip) || /^fe[89ab]/.test(ip);
  return false;
}

const isLocalName = (host: string): boolean => {
  const name = host.replace(/\.$/, '').toLowerCase();
  return name === 'localhost' || name.endsWith('.localhost');
};

/** A service on this machine or its network (the emulator, a dev server): its media may be local too. */
export function isLocalService(baseUrl: string): boolean {
  try {
    const host = new URL(baseUrl).hostname;
    return isLocalName(host) || isLocalAddress(host);
  } catch {
    return false;
  }
}

/** Thrown when a media link of a remote service leads to a local address. */
export const MEDIA_REFUSED = 'ATELIER_MEDIA_REFUSED';

const refusedLocal = (where: string): Error =>
  Object.assign(
    new Error(
      `The media link points at a local address (${where}) although the service is not on this machine or network; refused.`,
    ),
    { code: MEDIA_REFUSED },
  );

function assertNotLocalHost(url: URL): void {
  const host = url.hostname;
  if (isLocalName(host) || isLocalAddress(host)) throw refusedLocal(url.host);
}

/** dns.lookup, refusing names that resolve to a local address (DNS rebinding included). */
const publicOnlyLookup: LookupFunction = ((hostname: string, options: unknown, callback: unknown) => {
  const cb = (typeof options === 'function' ? options : callback) as (...args: unknown[]) => void;
  const opts = (typeof options === 'function' ? {} : (options ?? {})) as LookupOptions;
  lookup(hostname, { ...opts, all: true }, (error, addresses) => {
    if (error) return cb(error);
    const local = addresses.find((a) => isLocalAddress(a.address));
    if (local) return cb(refusedLocal(`${hostname} → ${local.address}`));
    if (opts.all) return cb(null, addresses);
    const first = addresses[0];
    return first
      ? cb(null, first.address, first.family)
      : cb(Object.assign(new Error('no address'), { code: 'ENOTFOUND' }));
  });
}) as LookupFunction;

const abortError = (): Error => Object.assign(new Error('The request was aborted.'), { name: 'AbortError' });

const timeoutError = (phase: string, ms: number): Error =>
  Object.assign(new Error(`Timeout awaiting '${phase}' for ${ms}ms`), { code: 'ETIMEDOUT' });

/**
 * One GET, no redirects followed: resolves with the response once its headers are in. The connect
 * and response timers end there; the socket's idle timer stays for the body, and so does the
 * signal (an abort destroys the body with the signal's reason).
 */
function requestOnce(
  url: URL,
  headers: Record<string, string>,
  signal: AbortSignal,
  remote: boolean,
  timeouts: MediaTimeouts,
): Promise<IncomingMessage> {
  const { http, https } = loadRequesters();
  return new Promise<IncomingMessage>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason instanceof Error ? signal.reason : abortError());
    const request = (url.protocol === 'https:' ? https : http)(url, {
      method: 'GET',
      headers: { ...BASE_HEADERS, ...headers },
      ...(remote ? { lookup: publicOnlyLookup } : {}),
    });
    let response: IncomingMessage | null = null;
    let timer: NodeJS.Timeout | null = null;
    const arm = (phase: string, ms: number): void => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => request.destroy(timeoutError(phase, ms)), ms);
    };
    const disarm = (): void => {
      if (timer) clearTimeout(timer);
      timer = null;
    };
    const onAbort = (): void => {
      const reason = signal.reason instanceof Error ? signal.reason : abortError();
      if (response) response.destroy(reason);
      request.destroy(reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    request.setTimeout(timeouts.socketMs, () => {
      const error = timeoutError('socket', timeouts.socketMs);
      if (response) response.destroy(error);
      request.destroy(error);
    });
    request.once('socket', (socket) => {
      // A kept-alive socket is connected already; a new one gets the connect limit.
      if (!socket.connecting) return arm('response', timeouts.responseMs);
      arm('connect', timeouts.connectMs);
      socket.once('connect', () => arm('response', timeouts.responseMs));
    });
    request.once('error', (error) => {
      disarm();
      signal.removeEventListener('abort', onAbort);
      if (!response) reject(error);
    });
    request.once('response', (answer) => {
      disarm();
      response = answer;
      answer.once('close', () => signal.removeEventListener('abort', onAbort));
      resolve(answer);
    });
    request.end();
  });
}

/**
 * GET `url` with redirects. `remote`: no local address, whether named, resolved (DNS rebinding
 * included) or redirected to.
 */
async function streamMedia(
  url: string,
  headers: Record<string, string>,
  signal: AbortSignal,
  remote: boolean,
  timeouts: MediaTimeouts = MEDIA_TIMEOUTS,
): Promise<MediaResponse> {
  let target = assertMediaUrl(url);
  for (let redirects = 0; ; redirects += 1) {
    if (remote) assertNotLocalHost(target);
    const response = await requestOnce(target, headers, signal, remote, timeouts);
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    if (REDIRECTS.has(status) && location) {
      response.destroy();
      if (redirects >= MAX_REDIRECTS) throw new Error(`Redirected ${MAX_REDIRECTS} times. Aborting.`);
      target = assertMediaUrl(new URL(location, target).toString());
      continue;
    }
    // Consumers attach their own handlers; this one only keeps an unread body from crashing us.
    response.on('error', () => undefined);
    return { status, headers: response.headers, body: response };
  }
}

export const fetchMedia: MediaFetch = (url, headers, signal) => streamMedia(url, headers, signal, false);

/** fetchMedia with other limits (tests). */
export const fetchMediaWithin =
  (timeouts: MediaTimeouts): MediaFetch =>
  (url, headers, signal) =>
    streamMedia(url, headers, signal, false, timeouts);

/**
 * The library's media fetch for one account: when the service is remote, links to this machine
 * or its network (loopback, private, link-local) are refused, named, resolved or redirected to;
 * a local service (the emulator, a dev setup) may use local media hosts.
 */
export function scopedMediaFetch(serviceBaseUrl: string | null): MediaFetch {
  if (serviceBaseUrl !== null && isLocalService(serviceBaseUrl)) return fetchMedia;
  return (url, headers, signal) => streamMedia(url, headers, signal, true);
}

// The one way the library talks to media hosts: a plain got stream with no service credentials
// (media URLs are signed links), no automatic retries (resume is ours) and no decompression
// (byte offsets must be the file's own).
import { lookup, type LookupOptions } from 'node:dns';
import type { IncomingHttpHeaders } from 'node:http';
import { isIP, type LookupFunction } from 'node:net';
import type { Readable } from 'node:stream';
import type { Got } from 'got';

export interface MediaResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body; destroy it when not reading it. */
  body: Readable;
}

export type MediaFetch = (url: string, headers: Record<string, string>, signal: AbortSignal) => Promise<MediaResponse>;

// got (and what it pulls in) is loaded at the first media request, not at start-up.
let clients: Promise<{ media: Got; remote: Got }> | null = null;
const mediaClients = (): Promise<{ media: Got; remote: Got }> =>
  (clients ??= import('got').then(({ default: got }) => {
    const media = got.extend(MEDIA_OPTIONS);
    return { media, remote: media.extend(remoteOnlyOptions()) };
  }));

const MEDIA_OPTIONS = {
  retry: { limit: 0 },
  decompress: false,
  throwHttpErrors: false,
  followRedirect: true,
  maxRedirects: 5,
  // connect/response bound a dead host; socket is the idle limit while a body trickles.
  timeout: { connect: 15_000, response: 30_000, socket: 60_000 },
  headers: { 'user-agent': 'Atelier', 'accept-encoding': 'identity' },
} as const;

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

/** Thrown (through got) when a media link of a remote service leads to a local address. */
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

/** got for the media of a remote service: no local address, whether named, resolved or redirected to. */
const remoteOnlyOptions = () => ({
  dnsLookup: publicOnlyLookup,
  hooks: { beforeRedirect: [(options: { url?: URL | string }) => assertNotLocalHost(options.url as URL)] },
});

async function streamMedia(
  which: 'media' | 'remote',
  url: string,
  headers: Record<string, string>,
  signal: AbortSignal,
): Promise<MediaResponse> {
  const client = (await mediaClients())[which];
  return new Promise<MediaResponse>((resolve, reject) => {
    const stream = client.stream(url, { headers, signal });
    const onError = (error: Error): void => reject(error);
    stream.once('error', onError);
    stream.once('response', (response: { statusCode: number; headers: IncomingHttpHeaders }) => {
      stream.off('error', onError);
      // Consumers attach their own handlers; this one only keeps an unread body from crashing us.
      stream.on('error', () => undefined);
      resolve({ status: response.statusCode, headers: response.headers, body: stream });
    });
  });
}

export const fetchMedia: MediaFetch = (url, headers, signal) => {
  assertMediaUrl(url);
  return streamMedia('media', url, headers, signal);
};

/**
 * The library's media fetch for one account: when the service is remote, links to this machine
 * or its network (loopback, private, link-local) are refused, named, resolved or redirected to;
 * a local service (the emulator, a dev setup) may use local media hosts.
 */
export function scopedMediaFetch(serviceBaseUrl: string | null): MediaFetch {
  if (serviceBaseUrl !== null && isLocalService(serviceBaseUrl)) return fetchMedia;
  return async (url, headers, signal) => {
    assertNotLocalHost(assertMediaUrl(url));
    return streamMedia('remote', url, headers, signal);
  };
}

// The one way the library talks to media hosts: a plain got stream with no service credentials
// (media URLs are signed links), no automatic retries (resume is ours) and no decompression
// (byte offsets must be the file's own).
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import got from 'got';

export interface MediaResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body; destroy it when not reading it. */
  body: Readable;
}

export type MediaFetch = (url: string, headers: Record<string, string>, signal: AbortSignal) => Promise<MediaResponse>;

const mediaGot = got.extend({
  retry: { limit: 0 },
  decompress: false,
  throwHttpErrors: false,
  followRedirect: true,
  maxRedirects: 5,
  // connect/response bound a dead host; socket is the idle limit while a body trickles.
  timeout: { connect: 15_000, response: 30_000, socket: 60_000 },
  headers: { 'user-agent': 'Atelier', 'accept-encoding': 'identity' },
});

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

export const fetchMedia: MediaFetch = (url, headers, signal) => {
  assertMediaUrl(url);
  return new Promise<MediaResponse>((resolve, reject) => {
    const stream = mediaGot.stream(url, { headers, signal });
    const onError = (error: Error): void => reject(error);
    stream.once('error', onError);
    stream.once('response', (response: { statusCode: number; headers: IncomingHttpHeaders }) => {
      stream.off('error', onError);
      // Consumers attach their own handlers; this one only keeps an unread body from crashing us.
      stream.on('error', () => undefined);
      resolve({ status: response.statusCode, headers: response.headers, body: stream });
    });
  });
};

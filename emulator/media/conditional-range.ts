// Serving bytes the way a CDN does: HEAD, ETag/Last-Modified, If-None-Match/If-Modified-Since, Range (206/416) and If-Range.
import { pipeline, Transform, type Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';

export interface MediaEntity {
  size: number;
  /** Quoted strong validator, e.g. `"abc123"`. */
  etag: string;
  lastModified: Date;
  contentType: string;
  /** A stream of bytes start..endInclusive (the whole entity when the range is everything). */
  read(start: number, endInclusive: number): Readable;
}

export interface SendMediaOptions {
  /** Fault knob: destroy the connection after this many body bytes (headers promise the full length). */
  cutAfterBytes?: number;
  /** Adds `Content-Disposition: attachment` with this file name. */
  downloadName?: string;
}

type ByteRange = { start: number; end: number };

/** Parses a single `bytes=` range. undefined = ignore the header (serve 200), 'unsatisfiable' = 416. */
export function parseRange(header: string, size: number): ByteRange | 'unsatisfiable' | undefined {
  const match = /^bytes=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header.trim());
  if (!match) return undefined; // multiple ranges or other units: a full 200 answer is allowed
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return undefined;
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (last !== '' && Number(last) < start) return undefined; // syntactically invalid: ignore
  if (start >= size) return 'unsatisfiable';
  return { start, end };
}

const httpDate = (date: Date): string => new Date(Math.floor(date.getTime() / 1000) * 1000).toUTCString();
const secondsOf = (date: Date): number => Math.floor(date.getTime() / 1000);

function etagMatchesAny(header: string, etag: string, weak: boolean): boolean {
  if (header.trim() === '*') return true;
  const bare = (tag: string): string => (weak ? tag.replace(/^W\//, '') : tag);
  return header.split(',').some((tag) => {
    const t = tag.trim();
    if (!weak && t.startsWith('W/')) return false;
    return bare(t) === bare(etag);
  });
}

/** If-Range holds when its validator still names this exact entity (strong ETag or exact date). */
function ifRangeHolds(value: string, entity: MediaEntity): boolean {
  const v = value.trim();
  if (v.startsWith('"') || v.startsWith('W/')) return !v.startsWith('W/') && v === entity.etag;
  const date = Date.parse(v);
  return Number.isFinite(date) && Math.floor(date / 1000) === secondsOf(entity.lastModified);
}

function cutAfter(limit: number): Transform {
  let sent = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      const room = limit - sent;
      if (room <= 0) return done(new Error('connection cut by the emulator fault knob'));
      if (chunk.length <= room) {
        sent += chunk.length;
        return done(null, chunk);
      }
      sent = limit;
      this.push(chunk.subarray(0, room));
      // Give the partial chunk a moment to reach the socket before the error tears it down.
      setTimeout(() => done(new Error('connection cut by the emulator fault knob')), 20);
    },
  });
}

export function sendMedia(
  request: FastifyRequest,
  reply: FastifyReply,
  entity: MediaEntity,
  options: SendMediaOptions = {},
): FastifyReply {
  const headers = request.headers;
  reply.header('accept-ranges', 'bytes');
  reply.header('etag', entity.etag);
  reply.header('last-modified', httpDate(entity.lastModified));
  reply.header('cache-control', 'private, max-age=3600');
  reply.header('content-type', entity.contentType);
  // Signed media links behave like a CDN's: readable cross-origin (hls.js fetches playlists and
  // segments with fetch/XHR from the app's own origin). The signature, not CORS, guards them.
  reply.header('access-control-allow-origin', '*');
  reply.header('access-control-expose-headers', 'content-length, content-range, accept-ranges, etag');
  if (options.downloadName) reply.header('content-disposition', `attachment; filename="${options.downloadName}"`);

  const ifNoneMatch = headers['if-none-match'];
  const ifModifiedSince = headers['if-modified-since'];
  const notModified = ifNoneMatch
    ? etagMatchesAny(ifNoneMatch, entity.etag, true)
    : ifModifiedSince !== undefined &&
      Number.isFinite(Date.parse(ifModifiedSince)) &&
      secondsOf(entity.lastModified) <= Math.floor(Date.parse(ifModifiedSince) / 1000);
  if (notModified) return reply.code(304).send();

  let range: ByteRange | 'unsatisfiable' | undefined;
  const rangeHeader = headers.range;
  const ifRangeRaw = headers['if-range'];
  const ifRange = Array.isArray(ifRangeRaw) ? ifRangeRaw[0] : ifRangeRaw;
  if (rangeHeader && (ifRange === undefined || ifRangeHolds(ifRange, entity)))
    range = parseRange(rangeHeader, entity.size);
  if (range === 'unsatisfiable') {
    reply.header('content-range', `bytes */${entity.size}`);
    return reply.code(416).header('content-type', 'text/plain').send('Range Not Satisfiable');
  }
  const { start, end } = range ?? { start: 0, end: entity.size - 1 };
  const length = Math.max(0, end - start + 1);
  if (range) reply.code(206).header('content-range', `bytes ${start}-${end}/${entity.size}`);
  reply.header('content-length', String(length));
  if (request.method === 'HEAD' || length === 0) return reply.send();
  const source = entity.read(start, end);
  if (options.cutAfterBytes === undefined) return reply.send(source);
  const cut = cutAfter(options.cutAfterBytes);
  // pipeline (not pipe) so a client hanging up also tears down the source stream.
  pipeline(source, cut, () => undefined);
  return reply.send(cut);
}

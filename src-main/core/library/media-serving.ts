// Serving library files to the renderer (browser-mode HTTP route and the shell's atelier-media:
// protocol): only regular files inside the library root, Range → 206, 416, HEAD, exact types.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { relative, sep } from 'node:path';
import { Readable } from 'node:stream';
import { AppError } from '../../contract/errors.ts';
import { contentTypeOfFile } from './media-types.ts';
import { safeLibraryPath } from './paths.ts';

export interface MediaRequest {
  /** Library-relative path, already percent-decoded (e.g. `images/img_1.png`, `.thumbs/img_1.webp`). */
  path: string;
  rangeHeader?: string | null;
  method?: string;
}

export interface MediaReply {
  status: number;
  headers: Record<string, string>;
  /** null for HEAD and empty bodies. */
  body: Readable | null;
}

type Range = { start: number; end: number };

/** One `bytes=` range against `size`. undefined = not a usable range (serve the whole file). */
export function parseByteRange(header: string, size: number): Range | 'unsatisfiable' | undefined {
  const match = /^bytes=(\d*)-(\d*)$/i.exec(header.replaceAll(' ', ''));
  if (!match) return undefined; // several ranges or another unit: a 200 with everything is allowed
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return undefined;
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  if (last !== '' && Number(last) < start) return undefined;
  if (start >= size) return 'unsatisfiable';
  return { start, end: last === '' ? size - 1 : Math.min(Number(last), size - 1) };
}

const plain = (status: number, message: string, head = false): MediaReply => ({
  status,
  headers: {
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(message)),
    'Cache-Control': 'no-store',
  },
  body: head ? null : Readable.from([Buffer.from(message)]),
});

/** Decodes a URL path piece into a library-relative path; null when it is not valid UTF-8 escapes. */
export function decodeMediaPath(encoded: string): string | null {
  try {
    return encoded
      .split('/')
      .map((part) => decodeURIComponent(part))
      .join('/');
  } catch {
    return null;
  }
}

/** Encodes a library-relative path for a URL (each segment, keeping the slashes). */
export function encodeMediaPath(relativePath: string): string {
  return relativePath.split('/').map(encodeURIComponent).join('/');
}

export async function serveLocalMedia(root: string, request: MediaRequest): Promise<MediaReply> {
  const method = (request.method ?? 'GET').toUpperCase();
  if (method !== 'GET' && method !== 'HEAD') {
    const refused = plain(405, 'Method not allowed');
    return { ...refused, headers: { ...refused.headers, Allow: 'GET, HEAD' } };
  }
  let file: string;
  try {
    file = await safeLibraryPath(root, request.path);
  } catch (error) {
    // Outside the root answers like a missing file: nothing to learn about the disk.
    if (error instanceof AppError) return plain(404, 'Not found', method === 'HEAD');
    throw error;
  }
  // Partial downloads are never served: they are not library files yet (nor is anything inside
  // the folder of an HLS copy still being made, videos/<id>.hls.part/).
  const inLibrary = relative(root, file).split(sep);
  if (inLibrary.some((segment) => segment.endsWith('.part'))) return plain(404, 'Not found', method === 'HEAD');
  const info = await stat(file).catch(() => null);
  if (!info || !info.isFile()) return plain(404, 'Not found', method === 'HEAD');

  const size = info.size;
  const headers: Record<string, string> = {
    'Content-Type': contentTypeOfFile(file),
    'Accept-Ranges': 'bytes',
    'Last-Modified': info.mtime.toUTCString(),
    ETag: `"${size.toString(36)}-${Math.floor(info.mtimeMs).toString(36)}"`,
    'Cache-Control': 'no-cache',
    'X-Content-Type-Options': 'nosniff',
  };
  const range = request.rangeHeader ? parseByteRange(request.rangeHeader, size) : undefined;
  if (range === 'unsatisfiable') {
    return {
      status: 416,
      headers: { ...headers, 'Content-Range': `bytes */${size}`, 'Content-Length': '0' },
      body: null,
    };
  }
  const { start, end } = range ?? { start: 0, end: size - 1 };
  const length = size === 0 ? 0 : end - start + 1;
  headers['Content-Length'] = String(length);
  if (range) headers['Content-Range'] = `bytes ${start}-${end}/${size}`;
  const status = range ? 206 : 200;
  if (method === 'HEAD' || length === 0) return { status, headers, body: null };
  return { status, headers, body: createReadStream(file, { start, end }) };
}

/** The same answer as a web Response, for Electron's `protocol.handle` (the shell binds it). */
export function toWebResponse(reply: MediaReply): Response {
  const body = reply.body ? (Readable.toWeb(reply.body) as ReadableStream<Uint8Array>) : null;
  return new Response(body, { status: reply.status, headers: reply.headers });
}

/** The shell's custom protocol for library files: `atelier-media://library/<library-relative path>`. */
export const MEDIA_SCHEME = 'atelier-media';
const MEDIA_HOST = 'library';

export const electronMediaUrl = (relativePath: string): string =>
  `${MEDIA_SCHEME}://${MEDIA_HOST}/${encodeMediaPath(relativePath)}`;

/** The library-relative path an `atelier-media://library/…` URL names, or null for any other URL. */
export function mediaPathFromProtocolUrl(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== `${MEDIA_SCHEME}:` || parsed.host !== MEDIA_HOST) return null;
  if (parsed.username || parsed.password || parsed.port) return null;
  const path = decodeMediaPath(parsed.pathname.replace(/^\/+/, ''));
  return path === null || path === '' ? null : path;
}

// Serving library files to the renderer (browser-mode HTTP route and the shell's atelier-media:
// protocol): only regular files inside the library root, Range → 206, 416, HEAD, exact types.
import { constants, type Stats } from 'node:fs';
import { open, realpath, stat, type FileHandle } from 'node:fs/promises';
import { relative, sep } from 'node:path';
import { Readable } from 'node:stream';
import { AppError } from '../../../contract/errors.ts';
import { contentTypeOfFile } from './media-types.ts';
import { isWithin, resolveInLibrary } from '../folder/paths.ts';

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

/** Characters encodeURIComponent leaves as they are (a subset), and the slashes between segments. */
const PLAIN_PATH = /^[\w.\-/]*$/;

/** Encodes a library-relative path for a URL (each segment, keeping the slashes). */
export function encodeMediaPath(relativePath: string): string {
  // Most library paths (images/img_1.png, .thumbs/…) need no escape, and a page of 200 assets
  // writes 400 of them: splitting each one was most of assets:list's cost over its SQL.
  if (PLAIN_PATH.test(relativePath)) return relativePath;
  return relativePath.split('/').map(encodeURIComponent).join('/');
}

/** How often a file replaced while it was opened is opened again before answering 404. */
const REPLACED_TRIES = 20;

/**
 * Opens the file first, then checks the opened file: its real path must lie inside the library and
 * be the very file the descriptor holds (same device and inode). Checking a path and opening it
 * afterwards lets a symlink swapped in between serve any file of the disk.
 */
async function openInLibrary(root: string, relativePath: string): Promise<{ handle: FileHandle; info: Stats } | null> {
  // A file replaced by an atomic rename while it was opened (settings written into a download,
  // a finished re-download) is a new file at the same name: open it again rather than answer 404,
  // which an <img> would keep. The checks stay the same on every try. A busy machine may see the
  // file replaced again during each try (5 tries gave 2 404s in 1,500 at load 8): up to 20.
  for (let attempt = 0; attempt < REPLACED_TRIES; attempt += 1) {
    const opened = await openOnce(root, relativePath);
    if (opened !== 'replaced') return opened;
  }
  return null;
}

async function openOnce(
  root: string,
  relativePath: string,
): Promise<{ handle: FileHandle; info: Stats } | 'replaced' | null> {
  let file: string;
  try {
    file = resolveInLibrary(root, relativePath);
  } catch (error) {
    if (error instanceof AppError) return null;
    throw error;
  }
  // O_NOFOLLOW refuses a link as the last component outright (where the platform has it).
  const handle = await open(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0)).catch(() => null);
  if (!handle) return null;
  let handedOn = false;
  try {
    const info = await handle.stat();
    if (!info.isFile()) return null;
    const [realRoot, real] = await Promise.all([realpath(root), realpath(file)]);
    // Partial downloads are never served: they are not library files yet (nor is anything inside
    // the folder of an HLS copy still being made, videos/<id>.hls.part/).
    const inLibrary = relative(realRoot, real).split(sep);
    if (!isWithin(realRoot, real) || inLibrary.some((segment) => segment.endsWith('.part'))) return null;
    const named = await stat(real);
    if (named.dev !== info.dev || named.ino !== info.ino) return named.isFile() ? 'replaced' : null;
    handedOn = true;
    return { handle, info };
  } catch {
    return null;
  } finally {
    if (!handedOn) await handle.close().catch(() => undefined);
  }
}

export async function serveLocalMedia(root: string, request: MediaRequest): Promise<MediaReply> {
  const method = (request.method ?? 'GET').toUpperCase();
  if (method !== 'GET' && method !== 'HEAD') {
    const refused = plain(405, 'Method not allowed');
    return { ...refused, headers: { ...refused.headers, Allow: 'GET, HEAD' } };
  }
  // Outside the root, a link out of it, a partial file: all answer like a missing file.
  const opened = await openInLibrary(root, request.path);
  if (!opened) return plain(404, 'Not found', method === 'HEAD');
  const { handle, info } = opened;

  const size = info.size;
  const headers: Record<string, string> = {
    'Content-Type': contentTypeOfFile(request.path),
    'Accept-Ranges': 'bytes',
    'Last-Modified': info.mtime.toUTCString(),
    ETag: `"${size.toString(36)}-${Math.floor(info.mtimeMs).toString(36)}"`,
    'Cache-Control': 'no-cache',
    'X-Content-Type-Options': 'nosniff',
  };
  const range = request.rangeHeader ? parseByteRange(request.rangeHeader, size) : undefined;
  if (range === 'unsatisfiable') {
    await handle.close();
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
  if (method === 'HEAD' || length === 0) {
    await handle.close();
    return { status, headers, body: null };
  }
  // Read from the descriptor that was checked, never by name again.
  return { status, headers, body: handle.createReadStream({ start, end, autoClose: true }) };
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

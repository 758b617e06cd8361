// Thumbnails made once per asset and cached as `.thumbs/<name>.webp` (320 px long edge) so the
// grid never loads full images. Images go through sharp; videos get a real frame from the ffmpeg
// that ships with the app (npm's @ffmpeg-installer, see ffmpeg-binary.ts), and a generated
// neutral poster with a play glyph only when no frame can be taken (an unreadable file).
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { loadSharp } from '../../lazy-sharp.ts';
import { writeFileDurable } from '../folder/durable-fs.ts';
import { findFfmpeg } from './ffmpeg-binary.ts';
import { MEDIA_REFUSED, type MediaFetch } from './media-http.ts';
import type { MediaReply } from './media-serving.ts';
import { fetchVideoSample } from './remote-sample.ts';

export { findFfmpeg, resetFfmpegLookup } from './ffmpeg-binary.ts';

export const THUMBS_DIR = '.thumbs';
export const THUMB_EDGE = 320;
const WEBP_QUALITY = 72;
const FFMPEG_TIMEOUT_MS = 20_000;
const MAX_FRAME_BYTES = 32 * 1024 * 1024;
const REMOTE_POSTER_TIMEOUT_MS = 15_000;

/** Ids are sanitised to [A-Za-z0-9._-] starting alphanumeric, so this name never collides. */
const SHARED_POSTER = '_video-poster.webp';

const thumbsDir = (area: string): string => (area ? `${area}/${THUMBS_DIR}` : THUMBS_DIR);

/** Library-relative path of an asset's thumbnail (`area`: the account's folder, '' or 'Demo'). */
export const thumbRelativePath = (safeName: string, area = ''): string => `${thumbsDir(area)}/${safeName}.webp`;

/** Posters of videos not downloaded yet live apart, so the download's own poster replaces them. */
const REMOTE_POSTERS_DIR = 'remote';

/** Library-relative path of the poster taken from a video's link before it is downloaded. */
export const remotePosterRelativePath = (safeName: string, area = ''): string =>
  `${thumbsDir(area)}/${REMOTE_POSTERS_DIR}/${safeName}.webp`;

/** A recorded thumbnail that came from the link, not from the downloaded file. */
export const isRemotePosterPath = (relativePath: string): boolean =>
  /(^|\/)\.thumbs\/remote\/[^/]+\.webp$/.test(relativePath);

const PLAY_GLYPH = (width: number, height: number): Buffer => {
  const r = Math.round(Math.min(width, height) * 0.18);
  const cx = width / 2;
  const cy = height / 2;
  const t = r * 0.45;
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
      `<circle cx="${cx}" cy="${cy}" r="${r}" fill="#000" fill-opacity="0.45"/>` +
      `<path d="M ${cx - t * 0.7} ${cy - t} L ${cx + t} ${cy} L ${cx - t * 0.7} ${cy + t} Z" fill="#fff" fill-opacity="0.92"/></svg>`,
  );
};

/**
 * A calm neutral 16:9 poster: with the play glyph for videos no frame could be taken from, plain
 * for images sharp cannot decode (e.g. HEIC without a decoder), so the grid never waits on them.
 */
export async function neutralPoster(glyph = true): Promise<Buffer> {
  const width = THUMB_EDGE;
  const height = Math.round((THUMB_EDGE * 9) / 16);
  const sharp = await loadSharp();
  const blank = sharp({ create: { width, height, channels: 3, background: { r: 46, g: 48, b: 54 } } });
  return (glyph ? blank.composite([{ input: PLAY_GLYPH(width, height) }]) : blank)
    .webp({ quality: WEBP_QUALITY })
    .toBuffer();
}

let sharedVideoPoster: Promise<Buffer> | undefined;

/** The generated video poster, made once per process (what a poster link shows until a frame is had). */
export function generatedVideoPoster(): Promise<Buffer> {
  sharedVideoPoster ??= neutralPoster().catch((error: unknown) => {
    sharedVideoPoster = undefined;
    throw error;
  });
  return sharedVideoPoster;
}

/** The generated poster, never cached: the same link shows the real frame once it is made. */
export async function generatedPosterReply(method = 'GET'): Promise<MediaReply> {
  const upper = method.toUpperCase();
  if (upper !== 'GET' && upper !== 'HEAD')
    return { status: 405, headers: { Allow: 'GET, HEAD', 'Content-Length': '0' }, body: null };
  const bytes = await generatedVideoPoster();
  return {
    status: 200,
    headers: {
      'Content-Type': 'image/webp',
      'Content-Length': String(bytes.length),
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    },
    body: upper === 'HEAD' ? null : Readable.from([bytes]),
  };
}

async function imageThumb(source: string): Promise<Buffer> {
  const sharp = await loadSharp();
  return sharp(source, { limitInputPixels: 268_402_689, failOn: 'error' })
    .rotate()
    .resize(THUMB_EDGE, THUMB_EDGE, { fit: 'inside', withoutEnlargement: true })
    .webp({ quality: WEBP_QUALITY })
    .toBuffer();
}

/** One PNG frame `at` seconds in, or null. */
function ffmpegFrame(ffmpeg: string, source: string, at: number): Promise<Buffer | null> {
  return new Promise((resolve) => {
    const args = [
      '-hide_banner',
      '-loglevel',
      'error',
      '-nostdin',
      '-ss',
      String(at),
      '-i',
      source,
      '-frames:v',
      '1',
      '-vf',
      `scale=${THUMB_EDGE}:${THUMB_EDGE}:force_original_aspect_ratio=decrease`,
      '-f',
      'image2pipe',
      '-vcodec',
      'png',
      'pipe:1',
    ];
    // Local files only, whatever the file turns out to be (a playlist in disguise cannot reach out).
    args.splice(6, 0, '-protocol_whitelist', 'file,crypto,data');
    if (source.endsWith('.m3u8')) args.splice(6, 0, '-allowed_extensions', 'ALL');
    const child = spawn(ffmpeg, args, { stdio: ['ignore', 'pipe', 'ignore'], windowsHide: true });
    const chunks: Buffer[] = [];
    let size = 0;
    const timer = setTimeout(() => child.kill('SIGKILL'), FFMPEG_TIMEOUT_MS);
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_FRAME_BYTES) child.kill('SIGKILL');
      else chunks.push(chunk);
    });
    child.on('error', () => {
      clearTimeout(timer);
      resolve(null);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve(code === 0 && size > 0 && size <= MAX_FRAME_BYTES ? Buffer.concat(chunks) : null);
    });
  });
}

/** A frame about half a second in (past a fade from black), the first one for shorter clips. */
async function videoFrame(ffmpeg: string, source: string): Promise<Buffer | null> {
  return (await ffmpegFrame(ffmpeg, source, 0.5)) ?? (await ffmpegFrame(ffmpeg, source, 0));
}

/** A webp poster of a frame of `source` with the play glyph, or null when no frame can be read. */
async function framePoster(source: string): Promise<Buffer | null> {
  const ffmpeg = await findFfmpeg();
  const frame = ffmpeg ? await videoFrame(ffmpeg, source) : null;
  if (!frame) return null;
  try {
    const sharp = await loadSharp();
    const image = sharp(frame);
    const { width = THUMB_EDGE, height = THUMB_EDGE } = await image.metadata();
    return await image
      .composite([{ input: PLAY_GLYPH(width, height) }])
      .webp({ quality: WEBP_QUALITY })
      .toBuffer();
  } catch {
    return null;
  }
}

async function videoThumb(source: string): Promise<{ bytes: Buffer; poster: 'frame' | 'generated' }> {
  const bytes = await framePoster(source);
  return bytes ? { bytes, poster: 'frame' } : { bytes: await neutralPoster(), poster: 'generated' };
}

export interface ThumbnailResult {
  /** Library-relative path of the thumbnail. */
  path: string;
  created: boolean;
  kind: 'image' | 'frame' | 'generated';
}

/**
 * Makes the thumbnail of one asset unless it exists. `source` is the absolute path of the local
 * file (for HLS, the local entry playlist), or null for a video not downloaded yet.
 */
export async function ensureThumbnail(options: {
  root: string;
  safeName: string;
  kind: 'image' | 'video';
  source: string | null;
  area?: string;
}): Promise<ThumbnailResult> {
  const area = options.area ?? '';
  // A video not on disk yet shares one generated poster, so its own thumbnail can still be a
  // real frame once it is downloaded.
  const relative =
    options.kind === 'video' && !options.source
      ? `${thumbsDir(area)}/${SHARED_POSTER}`
      : thumbRelativePath(options.safeName, area);
  const target = join(options.root, relative);
  const existing = await stat(target).catch(() => null);
  if (existing?.isFile() && existing.size > 0) {
    return {
      path: relative,
      created: false,
      kind: options.kind === 'image' ? 'image' : options.source ? 'frame' : 'generated',
    };
  }
  await mkdir(dirname(target), { recursive: true });
  if (options.kind === 'image') {
    if (!options.source) throw new Error('An image thumbnail needs the downloaded file.');
    const made = await imageThumb(options.source).catch(() => null);
    await writeFileDurable(target, made ?? (await neutralPoster(false)));
    return { path: relative, created: true, kind: made ? 'image' : 'generated' };
  }
  const { bytes, poster } = options.source
    ? await videoThumb(options.source)
    : { bytes: await neutralPoster(), poster: 'generated' as const };
  await writeFileDurable(target, bytes);
  return { path: relative, created: true, kind: poster };
}

/** Why a link gave no poster: `refused` and `no-frame` will not change by asking again, `unreachable` may. */
export type RemotePosterMiss = 'refused' | 'unreachable' | 'no-frame';

export type RemotePosterResult =
  (ThumbnailResult & { missed?: undefined }) | { missed: RemotePosterMiss; detail: string };

const errorCode = (error: unknown): string | undefined =>
  typeof error === 'object' && error !== null && 'code' in error
    ? String((error as { code: unknown }).code)
    : undefined;

/** What a failed sample fetch means for trying again later. */
function missOf(error: unknown): { missed: RemotePosterMiss; detail: string } {
  const message = error instanceof Error ? error.message : String(error);
  // The account's media fetch refused the link (a local address for a remote service, not http(s)).
  if (errorCode(error) === MEDIA_REFUSED || /media link/i.test(message)) return { missed: 'refused', detail: message };
  return { missed: 'unreachable', detail: message };
}

/**
 * A real frame for a video not downloaded yet, from the first bytes of its MP4 or the first
 * segment of its stream (remote-sample.ts: bounded bytes, no API key), within `timeoutMs`. Written
 * beside the thumbnails (`.thumbs/remote/`), so the downloaded file's own poster replaces it
 * later. A miss says why the link gave no frame (refused, unreachable, encrypted or not a
 * video): the caller shows the generated poster meanwhile.
 */
export async function ensureRemotePoster(options: {
  root: string;
  safeName: string;
  url: string;
  area?: string;
  /** The account's media fetch (media-http.ts `scopedMediaFetch`). */
  fetch: MediaFetch;
  timeoutMs?: number;
  maxBytes?: number;
  /** Stops the fetch early (the library closing). */
  signal?: AbortSignal;
}): Promise<RemotePosterResult> {
  const relative = remotePosterRelativePath(options.safeName, options.area ?? '');
  const target = join(options.root, relative);
  const existing = await stat(target).catch(() => null);
  if (existing?.isFile() && existing.size > 0) return { path: relative, created: false, kind: 'frame' };
  const timeout = AbortSignal.timeout(options.timeoutMs ?? REMOTE_POSTER_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const work = await mkdtemp(join(tmpdir(), 'atelier-poster-'));
  try {
    let sample: string | null;
    try {
      sample = await fetchVideoSample({
        url: options.url,
        dir: work,
        signal,
        fetch: options.fetch,
        ...(options.maxBytes ? { maxBytes: options.maxBytes } : {}),
      });
    } catch (error) {
      if (timeout.aborted) return { missed: 'unreachable', detail: 'the link did not answer in time' };
      return missOf(error);
    }
    if (!sample)
      return { missed: 'no-frame', detail: 'the link gave no video sample (refused, encrypted or not a video)' };
    const bytes = await framePoster(sample);
    if (!bytes) return { missed: 'no-frame', detail: 'no frame could be read from the sample' };
    if (options.signal?.aborted) return { missed: 'unreachable', detail: 'stopped' };
    await mkdir(dirname(target), { recursive: true });
    await writeFileDurable(target, bytes);
    return { path: relative, created: true, kind: 'frame' };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

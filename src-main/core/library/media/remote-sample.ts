// The first bytes of a video not downloaded yet, enough for ffmpeg to take a poster frame: the
// head of an MP4 (a Range request), or the first segment (with its init section) of an HLS
// stream's lightest variant that still fills a thumbnail. Bounded in bytes; the caller bounds
// time through `signal`. Media links are fetched like downloads, through the account's media
// fetch (`scopedMediaFetch`: no API key, no cookies, no local addresses for a remote service).
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as HLS from 'hls-parser';
import type { MediaFetch } from './media-http.ts';

type MasterPlaylist = InstanceType<typeof HLS.types.MasterPlaylist>;
type MediaPlaylist = InstanceType<typeof HLS.types.MediaPlaylist>;
type Variant = InstanceType<typeof HLS.types.Variant>;

export const SAMPLE_MAX_BYTES = 4 * 1024 * 1024;
const MAX_PLAYLIST_BYTES = 1024 * 1024;

export interface SampleOptions {
  url: string;
  /** A private folder the sample file is written into (the caller removes it). */
  dir: string;
  signal: AbortSignal;
  /** The account's media fetch (media-http.ts `scopedMediaFetch`). */
  fetch: MediaFetch;
  maxBytes?: number;
  /** The thumbnail's long edge: the lightest variant at least this large is taken. */
  minEdge?: number;
}

/** Up to `limit` bytes of `url` (asking for just those with a Range), or null on any non-2xx answer. */
async function head(
  fetch: MediaFetch,
  url: string,
  limit: number,
  signal: AbortSignal,
  range?: { offset: number; length: number },
): Promise<Buffer | null> {
  const from = range?.offset ?? 0;
  const to = from + Math.min(range?.length ?? limit, limit) - 1;
  const response = await fetch(url, { range: `bytes=${from}-${to}` }, signal);
  if (response.status !== 200 && response.status !== 206) {
    response.body.destroy();
    return null;
  }
  // A server that ignores Range sends the whole file: skip to the offset, stop at the limit.
  const skip = response.status === 200 ? from : 0;
  const want = to - from + 1;
  const chunks: Buffer[] = [];
  let seen = 0;
  let kept = 0;
  for await (const chunk of response.body as AsyncIterable<Buffer>) {
    const start = Math.max(0, skip - seen);
    seen += chunk.length;
    if (start >= chunk.length) continue;
    const piece = chunk.subarray(start, start + (want - kept));
    chunks.push(piece);
    kept += piece.length;
    if (kept >= want) break;
  }
  response.body.destroy();
  return Buffer.concat(chunks);
}

async function playlist(
  fetch: MediaFetch,
  url: string,
  signal: AbortSignal,
): Promise<MasterPlaylist | MediaPlaylist | null> {
  const bytes = await head(fetch, url, MAX_PLAYLIST_BYTES, signal);
  const text = bytes?.toString('utf8') ?? '';
  if (!text.trimStart().startsWith('#EXTM3U')) return null;
  try {
    return HLS.parse(text) as MasterPlaylist | MediaPlaylist;
  } catch {
    return null;
  }
}

/** The lightest variant whose picture fills the thumbnail, else the largest there is. */
export function posterVariant(variants: readonly Variant[], minEdge: number): Variant | undefined {
  const playable = [...variants.filter((v) => !v.isIFrameOnly && v.uri)].sort((a, b) => a.bandwidth - b.bandwidth);
  const edge = (v: Variant) => Math.max(v.resolution?.width ?? 0, v.resolution?.height ?? 0);
  return playable.find((v) => edge(v) >= minEdge) ?? playable.at(-1);
}

async function hlsSample(
  options: Required<Omit<SampleOptions, 'dir'>>,
): Promise<{ bytes: Buffer; ext: 'ts' | 'mp4' } | null> {
  const { fetch, signal, maxBytes } = options;
  let url = options.url;
  let parsed = await playlist(fetch, url, signal);
  if (parsed?.isMasterPlaylist) {
    const variant = posterVariant((parsed as MasterPlaylist).variants, options.minEdge);
    if (!variant) return null;
    url = new URL(variant.uri, url).toString();
    parsed = await playlist(fetch, url, signal);
  }
  const segment = (parsed as MediaPlaylist | null)?.segments?.[0];
  // Encrypted segments would need their key: a poster is not worth that.
  if (!segment || (segment.key && segment.key.method !== 'NONE')) return null;
  const parts: Buffer[] = [];
  if (segment.map?.uri) {
    const map = segment.map;
    const init = await head(fetch, new URL(map.uri, url).toString(), maxBytes, signal, map.byterange);
    if (!init) return null;
    parts.push(init);
  }
  const budget = maxBytes - (parts[0]?.length ?? 0);
  if (budget <= 0) return null;
  const media = await head(fetch, new URL(segment.uri, url).toString(), budget, signal, segment.byterange);
  if (!media) return null;
  parts.push(media);
  return { bytes: Buffer.concat(parts), ext: segment.map?.uri ? 'mp4' : 'ts' };
}

/**
 * Writes a sample of the video into `dir` and returns its path, or null when none could be had
 * (unreachable, refused, encrypted, not a video). Network errors and an abort reject.
 */
export async function fetchVideoSample(options: SampleOptions): Promise<string | null> {
  const settings = {
    url: options.url,
    signal: options.signal,
    fetch: options.fetch,
    maxBytes: options.maxBytes ?? SAMPLE_MAX_BYTES,
    minEdge: options.minEdge ?? 320,
  };
  const isHls = /\.m3u8$/i.test(new URL(options.url).pathname);
  const sample = isHls
    ? await hlsSample(settings)
    : { bytes: await head(settings.fetch, settings.url, settings.maxBytes, settings.signal), ext: 'mp4' };
  if (!sample?.bytes || sample.bytes.length === 0) return null;
  const file = join(options.dir, `sample.${sample.ext}`);
  await writeFile(file, sample.bytes);
  return file;
}

// Offline copy of an HLS stream: master → one variant (plus its default audio rendition), every
// segment, init section (EXT-X-MAP) and key (EXT-X-KEY), all URIs rewritten to flat local names,
// written to a staging folder and renamed into place only when complete. Live streams refused.
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import * as HLS from 'hls-parser';
import { fsyncDir, writeFileDurable } from '../folder/durable-fs.ts';
import { DownloadError, statusError } from './download-error.ts';
import { transferToPart } from './transfer.ts';
import { fetchMedia, type MediaFetch } from '../media/media-http.ts';

type MasterPlaylist = InstanceType<typeof HLS.types.MasterPlaylist>;
type MediaPlaylist = InstanceType<typeof HLS.types.MediaPlaylist>;
type Variant = InstanceType<typeof HLS.types.Variant>;

/**
 * The variant cap: the highest BANDWIDTH at or below 8 Mbit/s (a 1080p stream; keeps an offline
 * copy of a few minutes within a few hundred MB). When every variant is above it, the lowest wins.
 */
export const HLS_MAX_BANDWIDTH = 8_000_000;
const MAX_PLAYLIST_BYTES = 4 * 1024 * 1024;
const MAX_SEGMENTS = 20_000;
const PARALLEL_FILES = 4;
/** The entry the library points at; hls.js (or Safari) opens this. */
export const HLS_ENTRY = 'index.m3u8';

const SEGMENT_EXTENSIONS = new Set(['ts', 'm4s', 'mp4', 'm4v', 'm4a', 'aac', 'mp3', 'ac3', 'ec3', 'vtt', 'webvtt']);

export interface HlsProgress {
  filesDone: number;
  filesTotal: number;
  bytes: number;
}

export interface HlsCopyOptions {
  url: string;
  /** Final folder (absent until the copy is complete). */
  targetDir: string;
  /** Work folder; kept between attempts so a restart skips finished files. */
  stagingDir: string;
  signal: AbortSignal;
  maxBandwidth?: number;
  fetch?: MediaFetch;
  onProgress?(progress: HlsProgress): void;
}

export interface HlsCopyResult {
  entry: string;
  bytes: number;
  files: number;
  variant: { bandwidth: number; resolution: string | null } | null;
}

const refuse = (message: string): DownloadError => new DownloadError('fatal', message);

async function fetchText(fetch: MediaFetch, url: string, signal: AbortSignal): Promise<string> {
  let response;
  try {
    response = await fetch(url, {}, signal);
  } catch (error) {
    throw new DownloadError(
      signal.aborted ? 'aborted' : 'failure',
      `The playlist could not be fetched: ${(error as Error).message}`,
    );
  }
  if (response.status !== 200) {
    response.body.destroy();
    throw statusError(response.status, response.headers, 'The playlist');
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += (chunk as Buffer).length;
    if (size > MAX_PLAYLIST_BYTES) {
      response.body.destroy();
      throw refuse('The playlist is too large to be a real HLS playlist.');
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function parsePlaylist(text: string): MasterPlaylist | MediaPlaylist {
  if (!text.trimStart().startsWith('#EXTM3U')) throw refuse('The link is not an HLS playlist.');
  try {
    return HLS.parse(text) as MasterPlaylist | MediaPlaylist;
  } catch (error) {
    throw refuse(`The playlist could not be read: ${(error as Error).message.slice(0, 120)}`);
  }
}

export function chooseVariant(variants: readonly Variant[], cap = HLS_MAX_BANDWIDTH): Variant | undefined {
  const playable = variants.filter((v) => !v.isIFrameOnly && v.uri);
  const sorted = [...playable].sort((a, b) => a.bandwidth - b.bandwidth);
  const underCap = sorted.filter((v) => v.bandwidth <= cap);
  return underCap.at(-1) ?? sorted[0];
}

const extensionOf = (url: string, fallback: string): string => {
  const ext = /\.([A-Za-z0-9]{1,6})$/.exec(new URL(url).pathname)?.[1]?.toLowerCase();
  return ext && SEGMENT_EXTENSIONS.has(ext) ? ext : fallback;
};

/** Plans local names for every file a media playlist needs and rewrites its URIs to them. */
function planMediaPlaylist(
  playlist: MediaPlaylist,
  baseUrl: string,
  prefix: string,
  plan: Map<string, string>,
  keyCount: { n: number },
): void {
  if (!playlist.endlist) throw refuse('Live streams cannot be saved: the playlist has no end (#EXT-X-ENDLIST).');
  if (playlist.segments.length > MAX_SEGMENTS) throw refuse('The stream has too many segments to copy.');
  const local = (uri: string, name: (absolute: string) => string): string => {
    if (uri.startsWith('data:')) return uri;
    const absolute = new URL(uri, baseUrl).toString();
    if (!/^https?:/.test(absolute)) throw refuse('The playlist points at a non-http resource.');
    let file = plan.get(absolute);
    if (!file) {
      file = name(absolute);
      plan.set(absolute, file);
    }
    return file;
  };
  const rewrittenKeys = new WeakSet<object>();
  const rewrittenMaps = new WeakSet<object>();
  playlist.segments.forEach((segment, index) => {
    segment.uri = local(segment.uri, (abs) => `${prefix}${String(index).padStart(5, '0')}.${extensionOf(abs, 'ts')}`);
    segment.parts = [];
    const key = segment.key;
    if (key?.uri && !rewrittenKeys.has(key)) {
      const scheme = key.uri.startsWith('data:') ? 'data:' : new URL(key.uri, baseUrl).protocol;
      const drm =
        (key.format !== undefined && key.format !== 'identity') || !['http:', 'https:', 'data:'].includes(scheme);
      if (key.method !== 'NONE' && drm) throw refuse('DRM-protected streams cannot be saved.');
      key.uri = local(key.uri, () => `key${keyCount.n++}.key`);
      rewrittenKeys.add(key);
    }
    const map = segment.map;
    if (map?.uri && !rewrittenMaps.has(map)) {
      map.uri = local(map.uri, (abs) => `${prefix}init${plan.size}.${extensionOf(abs, 'mp4')}`);
      rewrittenMaps.add(map);
    }
  });
  playlist.prefetchSegments = [];
  playlist.renditionReports = [];
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** Downloads each planned file into the staging folder; finished files are skipped on a rerun. */
async function fetchAll(plan: Map<string, string>, options: HlsCopyOptions, fetch: MediaFetch): Promise<number> {
  const entries = [...plan.entries()];
  let next = 0;
  let filesDone = 0;
  let bytes = 0;
  const report = () => options.onProgress?.({ filesDone, filesTotal: entries.length, bytes });
  let failure: { error: unknown } | null = null;
  const worker = async (): Promise<void> => {
    for (;;) {
      const entry = failure ? undefined : entries[next++];
      if (!entry) return;
      const [url, name] = entry;
      const file = join(options.stagingDir, name);
      if (!(await exists(file))) {
        const part = `${file}.part`;
        const result = await transferToPart({
          url,
          partPath: part,
          state: { validator: null, totalBytes: null, contentType: null },
          signal: options.signal,
          fetch,
          onStart: () => undefined,
        });
        await rename(part, file);
        bytes += result.bytes;
      } else {
        bytes += (await stat(file)).size;
      }
      filesDone += 1;
      report();
    }
  };
  report();
  // On a failure the other workers finish their current file and stop, so nothing keeps
  // writing into the staging folder after this returns.
  await Promise.all(
    Array.from({ length: Math.min(PARALLEL_FILES, entries.length) }, () =>
      worker().catch((error: unknown) => {
        failure ??= { error };
      }),
    ),
  );
  if (failure) throw (failure as { error: unknown }).error;
  return bytes;
}

export async function copyHlsOffline(options: HlsCopyOptions): Promise<HlsCopyResult> {
  const fetch = options.fetch ?? fetchMedia;
  const top = parsePlaylist(await fetchText(fetch, options.url, options.signal));
  const plan = new Map<string, string>();
  const keyCount = { n: 0 };
  const outputs: { name: string; text: string }[] = [];
  let chosen: Variant | undefined;

  if (top.isMasterPlaylist) {
    chosen = chooseVariant(top.variants, options.maxBandwidth);
    if (!chosen) throw refuse('The playlist lists no playable variant.');
    const videoUrl = new URL(chosen.uri, options.url).toString();
    const video = parsePlaylist(await fetchText(fetch, videoUrl, options.signal));
    if (video.isMasterPlaylist) throw refuse('The variant playlist is itself a master playlist.');
    planMediaPlaylist(video, videoUrl, 'v', plan, keyCount);
    outputs.push({ name: 'video.m3u8', text: HLS.stringify(video) });
    chosen.uri = 'video.m3u8';
    // Keep the default audio rendition of the chosen variant when it is a separate playlist.
    const audio = chosen.audio.find((r) => r.isDefault && r.uri) ?? chosen.audio.find((r) => r.uri);
    if (audio?.uri) {
      const audioUrl = new URL(audio.uri, options.url).toString();
      const audioPlaylist = parsePlaylist(await fetchText(fetch, audioUrl, options.signal));
      if (audioPlaylist.isMasterPlaylist) throw refuse('The audio playlist is a master playlist.');
      planMediaPlaylist(audioPlaylist, audioUrl, 'a', plan, keyCount);
      outputs.push({ name: 'audio.m3u8', text: HLS.stringify(audioPlaylist) });
      audio.uri = 'audio.m3u8';
      audio.isDefault = true;
    }
    chosen.audio = audio ? [audio] : chosen.audio.filter((r) => !r.uri);
    // Subtitles and captions are not copied (documented): drop their references.
    chosen.subtitles = [];
    chosen.closedCaptions = chosen.closedCaptions.filter((r) => !r.uri);
    chosen.video = chosen.video.filter((r) => !r.uri);
    const master = new HLS.types.MasterPlaylist({
      version: top.version,
      independentSegments: top.independentSegments,
      variants: [chosen],
    });
    outputs.push({ name: HLS_ENTRY, text: HLS.stringify(master) });
  } else {
    planMediaPlaylist(top, options.url, 'v', plan, keyCount);
    outputs.push({ name: HLS_ENTRY, text: HLS.stringify(top) });
  }

  await mkdir(options.stagingDir, { recursive: true });
  const bytes = await fetchAll(plan, options, fetch);
  for (const output of outputs) await writeFileDurable(join(options.stagingDir, output.name), output.text);
  // The folder appears under its final name only once everything in it is there.
  await rm(options.targetDir, { recursive: true, force: true });
  await rename(options.stagingDir, options.targetDir);
  await fsyncDir(join(options.targetDir, '..'));
  const textBytes = outputs.reduce((sum, o) => sum + Buffer.byteLength(o.text), 0);
  return {
    entry: HLS_ENTRY,
    bytes: bytes + textBytes,
    files: plan.size + outputs.length,
    variant: chosen
      ? {
          bandwidth: chosen.bandwidth,
          resolution: chosen.resolution ? `${chosen.resolution.width}x${chosen.resolution.height}` : null,
        }
      : null,
  };
}

// The facts of a downloaded file — width × height, length and format — read from the file itself
// (issue 31): images through sharp's header read, videos through the ffmpeg that ships with the app
// (ffmpeg-binary.ts; `-i` alone prints the container's duration and each stream's frame size, no
// ffprobe needed), an HLS copy from its local playlists only. They replace what the request or the
// service said (AssetsRepo.recordFacts, facts_from 'file'). Read one at a time after a download
// and, on a start, for downloaded files not read yet (schema 14's partial index), paced.
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import type { AssetsChangedInfo } from '../../../contract/ipc/assets.ts';
import type { AssetRefInfo } from '../../../contract/ipc/library.ts';
import type { MediaFacts } from '../../../contract/media-size.ts';
import type { AssetsRepo } from '../../db/repos/assets-repo.ts';
import type { AssetRow } from '../../db/repos/asset-row.ts';
import { loadSharp } from '../../lazy-sharp.ts';
import { findFfmpeg } from './ffmpeg-binary.ts';
import { pacer, type PaceOptions } from '../paced-work.ts';
import { safeLibraryPath } from '../folder/paths.ts';

const FFMPEG_TIMEOUT_MS = 20_000;
const MAX_FFMPEG_OUTPUT = 256 * 1024;
const NONE: MediaFacts = { width: null, height: null, durationMs: null, format: null };

/** sharp's format names as the app says them. */
const IMAGE_FORMATS: Readonly<Record<string, string>> = {
  jpeg: 'jpeg',
  png: 'png',
  webp: 'webp',
  gif: 'gif',
  heif: 'heic',
  avif: 'avif',
  tiff: 'tiff',
};

async function imageFacts(path: string): Promise<MediaFacts> {
  try {
    const sharp = await loadSharp();
    const meta = await sharp(path, { failOn: 'none' }).metadata();
    // EXIF orientations 5–8 swap the width and height a viewer shows.
    const swap = (meta.orientation ?? 1) >= 5;
    const width = meta.width ?? null;
    const height = meta.height ?? null;
    return {
      ...(swap ? { width: height, height: width } : { width, height }),
      durationMs: null,
      format: (meta.format && IMAGE_FORMATS[meta.format]) ?? meta.format ?? null,
    };
  } catch {
    return NONE;
  }
}

/** What `ffmpeg -i` prints about an input (it exits 1: no output named), or '' when it cannot run. */
function ffmpegProbe(ffmpeg: string, source: string): Promise<string> {
  return new Promise((resolve) => {
    const args = ['-hide_banner', '-nostdin', '-protocol_whitelist', 'file,crypto,data'];
    if (source.endsWith('.m3u8')) args.push('-allowed_extensions', 'ALL');
    args.push('-i', source);
    const child = spawn(ffmpeg, args, { stdio: ['ignore', 'ignore', 'pipe'], windowsHide: true });
    let text = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), FFMPEG_TIMEOUT_MS);
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (text.length < MAX_FFMPEG_OUTPUT) text += chunk;
    });
    child.on('error', () => {
      clearTimeout(timer);
      resolve('');
    });
    child.on('close', () => {
      clearTimeout(timer);
      resolve(text);
    });
  });
}

/** Duration and the first video stream's frame size from `ffmpeg -i`'s report. */
export function parseProbe(report: string): Pick<MediaFacts, 'width' | 'height' | 'durationMs'> {
  const duration = /Duration: (\d+):(\d{2}):(\d{2}(?:\.\d+)?)/.exec(report);
  const ms = duration ? ((Number(duration[1]) * 60 + Number(duration[2])) * 60 + Number(duration[3])) * 1000 : 0;
  const frame = /Stream #[^\n]*Video:[^\n]*?\b(\d{2,5})x(\d{2,5})\b/.exec(report);
  return {
    width: frame ? Number(frame[1]) : null,
    height: frame ? Number(frame[2]) : null,
    durationMs: ms > 0 ? Math.round(ms) : null,
  };
}

/** An HLS copy's length from its playlist: the sum of its segments' EXTINF. */
async function playlistDuration(path: string): Promise<number | null> {
  const text = await readFile(path, 'utf8').catch(() => '');
  let seconds = 0;
  for (const match of text.matchAll(/^#EXTINF:([\d.]+)/gm)) seconds += Number(match[1]);
  return seconds > 0 ? Math.round(seconds * 1000) : null;
}

async function videoFacts(path: string): Promise<MediaFacts> {
  const hls = path.endsWith('.m3u8');
  const ffmpeg = await findFfmpeg();
  const probed = ffmpeg ? parseProbe(await ffmpegProbe(ffmpeg, path)) : NONE;
  const durationMs = probed.durationMs ?? (hls ? await playlistDuration(path) : null);
  return { width: probed.width, height: probed.height, durationMs, format: hls ? 'hls' : 'mp4' };
}

/** The facts of a library file (`path` absolute; for HLS, the local entry playlist). */
export function readFileFacts(kind: 'image' | 'video', path: string): Promise<MediaFacts> {
  return kind === 'image' ? imageFacts(path) : videoFacts(path);
}

export interface FileFactsDeps {
  assets: AssetsRepo;
  root(): string;
  /** Tells the renderer the assets changed. */
  announce(reason: AssetsChangedInfo['reason'], refs: readonly AssetRefInfo[]): void;
  logError(message: string, error: unknown): void;
  /** Ends the work (the library stops). */
  signal: AbortSignal;
}

/** Files read at most per start, newest first (the rest at the next start). */
const BACKFILL_LIMIT = 5000;

/** Reads downloaded files' facts one at a time; `idle()` is what stop() waits for. */
export function createFileFacts(deps: FileFactsDeps) {
  let chain: Promise<void> = Promise.resolve();
  const readOne = async (asset: AssetRow): Promise<void> => {
    const current = deps.assets.getBySeq(asset.seq);
    if (deps.signal.aborted || !current || current.file_state !== 'downloaded' || !current.local_path) return;
    const path = await safeLibraryPath(deps.root(), current.local_path);
    const facts = await readFileFacts(current.kind, path);
    // Nothing readable (a picture sharp cannot decode): what the request or the service said stays.
    if (deps.signal.aborted || (facts.width === null && facts.durationMs === null && facts.format === null)) return;
    if (deps.assets.recordFacts(current.seq, facts, 'file'))
      deps.announce('download', [{ kind: current.kind, id: current.id }]);
  };
  const read = (asset: AssetRow): Promise<void> => {
    chain = chain
      .then(() => readOne(asset))
      .catch((error: unknown) => deps.logError(`Reading the facts of ${asset.kind} ${asset.id} failed`, error));
    return chain;
  };
  return {
    read,
    /** Downloaded files whose facts came from elsewhere (or from before schema 14), paced. */
    async backfill(pace: PaceOptions): Promise<void> {
      const step = pacer(pace);
      const seen = new Set<number>();
      try {
        while (seen.size < BACKFILL_LIMIT && !deps.signal.aborted) {
          const rows = deps.assets.listFactsUnread(100).filter((row) => !seen.has(row.seq));
          if (rows.length === 0) return;
          for (const row of rows) {
            if (deps.signal.aborted) return;
            seen.add(row.seq);
            await read(row);
            await step();
          }
        }
      } catch (error) {
        if (!deps.signal.aborted) deps.logError('Reading the facts of downloaded files failed', error);
      }
    },
    idle: (): Promise<void> => chain,
  };
}

// The committed video fixtures (MP4 + HLS), loaded once into memory with their validators.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { MediaEntity } from './conditional-range.ts';

const FIXTURE_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');

const CONTENT_TYPES: Record<string, string> = {
  '.mp4': 'video/mp4',
  '.m3u8': 'application/vnd.apple.mpegurl',
  '.ts': 'video/mp2t',
};

export function bufferEntity(bytes: Buffer, contentType: string, lastModified: Date): MediaEntity {
  return {
    size: bytes.length,
    etag: `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 24)}"`,
    lastModified,
    contentType,
    read: (start, end) => Readable.from([bytes.subarray(start, end + 1)]),
  };
}

/** Segments are stored as `*.ts.bin` (so tools never take MPEG-TS for TypeScript) and served as `*.ts`. */
const servedName = (path: string): string => path.replace(/\.bin$/, '');

function loadFile(path: string): MediaEntity {
  const name = servedName(path);
  const extension = name.slice(name.lastIndexOf('.'));
  return bufferEntity(readFileSync(path), CONTENT_TYPES[extension] ?? 'application/octet-stream', statSync(path).mtime);
}

export interface VideoFixtures {
  mp4: { landscape: MediaEntity; portrait: MediaEntity };
  /** Keyed by the path inside the HLS folder: `master.m3u8`, `v0/index.m3u8`, `v0/seg0.ts`, … */
  hls: Map<string, MediaEntity>;
}

export function loadVideoFixtures(dir: string = FIXTURE_DIR): VideoFixtures {
  const hls = new Map<string, MediaEntity>();
  const hlsDir = join(dir, 'hls');
  for (const entry of readdirSync(hlsDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = join(entry.parentPath, entry.name);
    hls.set(servedName(relative(hlsDir, full).split('\\').join('/')), loadFile(full));
  }
  return {
    mp4: { landscape: loadFile(join(dir, 'video-landscape.mp4')), portrait: loadFile(join(dir, 'video-portrait.mp4')) },
    hls,
  };
}

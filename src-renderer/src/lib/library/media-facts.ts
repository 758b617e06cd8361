// What is known of an asset's media, said one way everywhere (the viewer's details, tiles' tooltips):
// width × height (a video's frame size), length, format and size on disk. A size only asked for
// (no file or service record said it yet) is marked "requested".
import type { AssetInfo } from '@contract/ipc/assets.ts';
import { formatBytes, formatDuration } from './format.ts';

export interface MediaFact {
  label: string;
  value: string;
}

type FactsOf = Pick<AssetInfo, 'kind' | 'width' | 'height' | 'durationMs' | 'format' | 'factsFrom' | 'file'>;

const FORMAT_NAMES: Readonly<Record<string, string>> = {
  jpeg: 'JPEG',
  png: 'PNG',
  webp: 'WebP',
  gif: 'GIF',
  heic: 'HEIC',
  avif: 'AVIF',
  tiff: 'TIFF',
  mp4: 'MP4',
  hls: 'HLS (offline stream copy)',
};

export const formatName = (format: string): string => FORMAT_NAMES[format] ?? format.toUpperCase();

/** "1024 × 1024", or "1024 × 672 (requested)" before a file or the service said it. */
export function dimensionsOf(asset: FactsOf): string | null {
  if (!asset.width || !asset.height) return null;
  return `${asset.width} × ${asset.height}${asset.factsFrom === 'request' ? ' (requested)' : ''}`;
}

export function mediaFacts(asset: FactsOf): MediaFact[] {
  const facts: MediaFact[] = [];
  const size = dimensionsOf(asset);
  if (size) facts.push({ label: asset.kind === 'video' ? 'Frame size' : 'Dimensions', value: size });
  if (asset.kind === 'video' && asset.durationMs)
    facts.push({
      label: 'Length',
      value: `${formatDuration(asset.durationMs)}${asset.factsFrom === 'request' ? ' (requested)' : ''}`,
    });
  if (asset.format) facts.push({ label: 'Format', value: formatName(asset.format) });
  if (asset.file.state === 'downloaded' && asset.file.bytes !== null)
    facts.push({ label: 'On disk', value: formatBytes(asset.file.bytes) });
  return facts;
}

/** One line for a tooltip: "1024 × 1024 · PNG · 1.2 MB". */
export const mediaFactsLine = (asset: FactsOf): string =>
  mediaFacts(asset)
    .map((fact) => fact.value)
    .join(' · ');

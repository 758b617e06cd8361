// The shape (width ÷ height) of an asset or a job's output before its pixels are seen: the size the
// service or the downloaded file gave, else the aspect ratio the request asked for (images put it at
// the top level, videos in their option group as aspectRatio or ratio, trained models as width and
// height), else a video's 16:9 or an image's square. Grids lay tiles out with it; the viewer opens with it.
import type { AssetInfo } from '@contract/ipc/assets.ts';
import { clampShape } from '@contract/shape-code.ts';
import { parseAspect } from '../viewer/zoom.ts';
import { assetParams } from './asset-params.ts';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const positive = (value: unknown): number | null => (typeof value === 'number' && value > 0 ? value : null);

/** The contract's one range (shape-code.ts): shapes outside it are clamped for layout. */
export { clampShape };

/** The aspect ratio a request asked for, or null when it names none. */
export function requestAspect(request: Record<string, unknown> | null | undefined): number | null {
  if (!request) return null;
  const top = parseAspect(typeof request['aspectRatio'] === 'string' ? request['aspectRatio'] : null);
  if (top) return top;
  const options = request['options'];
  if (isRecord(options)) {
    for (const group of Object.values(options)) {
      if (!isRecord(group)) continue;
      for (const key of ['aspectRatio', 'ratio']) {
        const ratio = parseAspect(typeof group[key] === 'string' ? group[key] : null);
        if (ratio) return ratio;
      }
    }
  }
  const width = positive(request['width']);
  const height = positive(request['height']);
  return width && height ? width / height : null;
}

/** The asset's own shape when its size is known, else the requested one, else the kind's usual one. */
export function assetAspect(asset: Pick<AssetInfo, 'width' | 'height' | 'paramsJson' | 'kind'>): number {
  if (asset.width && asset.height && asset.width > 0 && asset.height > 0) return asset.width / asset.height;
  return requestAspect(assetParams(asset)) ?? (asset.kind === 'video' ? 16 / 9 : 1);
}

/** The shape a job's pending outputs take: what it asked for, else the kind's usual one. */
export function pendingAspect(kind: 'image' | 'video', request: Record<string, unknown>): number {
  return requestAspect(request) ?? (kind === 'video' ? 16 / 9 : 1);
}

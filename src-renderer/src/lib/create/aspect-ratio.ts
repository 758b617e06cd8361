// Aspect ratios as shapes and pixel sizes: the one aspect-ratio control draws each ratio as a small
// rectangle and says what size the chosen one renders at.
import { tierSize, videoFrameSize } from '@contract/media-size.ts';
import { resolveImagecSize } from '@contract/rules/index.ts';

export interface Ratio {
  w: number;
  h: number;
}

/** '16:9' → { w: 16, h: 9 }; null for words such as 'adaptive'. */
export function parseRatio(value: string): Ratio | null {
  const match = /^(\d{1,3}):(\d{1,3})$/.exec(value);
  if (!match) return null;
  const w = Number(match[1]);
  const h = Number(match[2]);
  return w > 0 && h > 0 ? { w, h } : null;
}

/** The shape's box inside a square of `size` px: the long side fills it. */
export function shapeBox(value: string, size: number): { width: number; height: number } | null {
  const ratio = parseRatio(value);
  if (!ratio) return null;
  const scale = size / Math.max(ratio.w, ratio.h);
  return { width: Math.max(3, Math.round(ratio.w * scale)), height: Math.max(3, Math.round(ratio.h * scale)) };
}

/**
 * The pixel size of an image model's output, by the contract's one size rule (media-size.ts):
 * imagec-2 by the rules' exact resolution; other public families put the size tier on the long
 * edge (1K = 1024 px) — an estimate, said as "about".
 */
export function imagePixelSize(
  family: string,
  imageSize: unknown,
  ratio: string,
): { width: number; height: number; exact: boolean } | null {
  const tier = typeof imageSize === 'string' ? /^(\d)K$/.exec(imageSize) : null;
  if (family === 'imagec') {
    const exact = typeof imageSize === 'string' ? resolveImagecSize(imageSize, ratio) : null;
    return exact ? { ...exact, exact: true } : null;
  }
  const size = tier ? tierSize(imageSize, ratio) : null;
  return size ? { ...size, exact: false } : null;
}

/** A video's frame size from its resolution ('720p' is the short edge) and ratio. */
export const videoPixelSize = (resolution: unknown, ratio: string): { width: number; height: number } | null =>
  videoFrameSize(resolution, ratio);

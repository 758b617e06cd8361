// imagec-2 size resolution: how imageSize (1K/2K/4K) and aspectRatio combine into exact pixel dimensions.
//
// The spec only says the tier "is combined with aspectRatio" and that the result must have a long edge
// of at most 3840 px, a ratio of at most 3:1, and edges that are multiples of 16. Our scheme: each tier
// is a PIXEL BUDGET — 1K = 1024×1024, 2K = 2048×2048, 4K = 3840×2160 (the UHD frame) — spread over the
// requested ratio (width = √(budget·r), height = √(budget/r)), each edge rounded DOWN to a multiple of 16
// so the budget is never exceeded. Equal area per tier keeps the cost of a tier constant across ratios.
// Consequence, genuinely refused: 4K at 21:9 resolves to 4384×1872, whose long edge exceeds 3840.
// 4K at 16:9 is exactly 3840×2160. Ratios beyond 3:1 (not in the aspect-ratio enum, but accepted by
// this function) are refused too.

export const IMAGEC_PIXEL_BUDGET: Readonly<Record<string, number>> = {
  '1K': 1024 * 1024,
  '2K': 2048 * 2048,
  '4K': 3840 * 2160,
};

export const IMAGEC_LIMITS = { maxEdge: 3840, maxRatio: 3, edgeMultiple: 16 } as const;

export type ImagecSizeResolution = { ok: true; width: number; height: number } | { ok: false; reason: string };

function parseRatio(aspectRatio: string): { a: number; b: number } | null {
  const match = /^(\d{1,4}):(\d{1,4})$/.exec(aspectRatio);
  if (!match) return null;
  const a = Number(match[1]);
  const b = Number(match[2]);
  return a > 0 && b > 0 ? { a, b } : null;
}

/**
 * The one rounding of a derived edge, for every family: down to a multiple of 16. The spec states its
 * size rules as ceilings (a long edge of at most 3840 px, multiples of 16), and rounding down never
 * crosses one, nor a tier's pixel budget; rounding to the nearest would (1024×688 at 3:2 rounds a
 * 682.7 px edge up). contract/media-size.ts uses it for the other families and videos' requests.
 */
export const floorToEdgeMultiple = (value: number): number =>
  Math.floor(value / IMAGEC_LIMITS.edgeMultiple) * IMAGEC_LIMITS.edgeMultiple;

/** Checks the spec's three constraints on resolved dimensions; returns the broken one, or null. */
export function imagecDimensionsProblem(width: number, height: number): string | null {
  const { maxEdge, maxRatio, edgeMultiple } = IMAGEC_LIMITS;
  const long = Math.max(width, height);
  const short = Math.min(width, height);
  if (!(short > 0)) return `resolves to ${width}×${height}, which has an empty edge`;
  if (long > maxEdge) return `resolves to ${width}×${height}, whose long edge exceeds ${maxEdge} px`;
  if (long / short > maxRatio) return `resolves to ${width}×${height}, which is wider than ${maxRatio}:1`;
  if (width % edgeMultiple !== 0 || height % edgeMultiple !== 0) {
    return `resolves to ${width}×${height}, whose edges are not multiples of ${edgeMultiple}`;
  }
  return null;
}

/** Like resolveImagecSize, but says why a combination is refused. */
export function explainImagecSize(imageSize: string, aspectRatio: string): ImagecSizeResolution {
  const budget =
    typeof imageSize === 'string' && Object.hasOwn(IMAGEC_PIXEL_BUDGET, imageSize)
      ? IMAGEC_PIXEL_BUDGET[imageSize]
      : undefined;
  if (budget === undefined) return { ok: false, reason: `imageSize ${String(imageSize)} is not one of 1K, 2K, 4K` };
  const ratio = typeof aspectRatio === 'string' ? parseRatio(aspectRatio) : null;
  if (!ratio) return { ok: false, reason: `aspectRatio ${String(aspectRatio)} is not of the form W:H` };
  const width = floorToEdgeMultiple(Math.sqrt((budget * ratio.a) / ratio.b));
  const height = floorToEdgeMultiple(Math.sqrt((budget * ratio.b) / ratio.a));
  const reason = imagecDimensionsProblem(width, height);
  return reason ? { ok: false, reason: `${imageSize} at ${aspectRatio} ${reason}` } : { ok: true, width, height };
}

/** Exact output dimensions of imagec-2 for a size tier and aspect ratio, or null when the service refuses them. */
export function resolveImagecSize(imageSize: string, aspectRatio: string): { width: number; height: number } | null {
  const resolved = explainImagecSize(imageSize, aspectRatio);
  return resolved.ok ? { width: resolved.width, height: resolved.height } : null;
}

// An item's shape (width ÷ height) in one byte, so the library's layout of a whole view can travel
// from the core to the grid before the items themselves: a million shapes are a megabyte, a million
// assets hundreds. Shapes are clamped to 1:4…4:1 (what the grid lays out anyway) on a log scale:
// 254 steps over that range, so a decoded shape is within 0.6 % of the true one. Code 0: size unknown.

/** The one range of shapes: outside it a shape is clamped, so a 1×50 banner cannot make a tile a needle. */
export const SHAPE_RANGE = { min: 1 / 4, max: 4 } as const;

/** A shape (width ÷ height) brought into SHAPE_RANGE. */
export const clampShape = (ratio: number): number => Math.min(SHAPE_RANGE.max, Math.max(SHAPE_RANGE.min, ratio));

const STEPS = 254;
const LOG_MIN = Math.log2(SHAPE_RANGE.min);
const LOG_SPAN = Math.log2(SHAPE_RANGE.max) - LOG_MIN;

/** The code of a size (0 when either side is missing or not positive). */
export function shapeCode(width: number | null, height: number | null): number {
  if (!width || !height || width <= 0 || height <= 0) return 0;
  const ratio = clampShape(width / height);
  return 1 + Math.round(((Math.log2(ratio) - LOG_MIN) / LOG_SPAN) * STEPS);
}

/** The shape a code stands for; `unknown` for code 0. */
export function shapeOfCode(code: number, unknown: number): number {
  if (code <= 0) return unknown;
  return 2 ** (LOG_MIN + ((Math.min(code, STEPS + 1) - 1) / STEPS) * LOG_SPAN);
}

/** A shape as the layout keeps it: the same value whether it came as a code or from the item itself. */
export const layoutShape = (ratio: number): number => shapeOfCode(shapeCode(ratio, 1), ratio);

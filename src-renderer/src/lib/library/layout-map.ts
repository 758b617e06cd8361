// The background map of the Library's list (state/library/list.svelte.ts): past the first page the
// list is mapped, not read (assets:layout: each next page's cursor and its items' shapes, a byte
// each), one call per idle moment of the renderer, never while the view moves.
import { ASSET_LAYOUT_PAGES } from '@contract/ipc/assets.ts';
import { shapeOfCode } from '@contract/shape-code.ts';

/** Pages mapped by one assets:layout call (50,000 items), one call per idle moment in the background. */
export const MAP_PAGES = ASSET_LAYOUT_PAGES.default;

/** The one-byte shapes of a mapped page (base64) as the layout's shapes (unknown: square until its page says). */
export function decodeShapes(base64: string): Float64Array {
  const text = atob(base64);
  const shapes = new Float64Array(text.length);
  for (let i = 0; i < text.length; i += 1) shapes[i] = shapeOfCode(text.charCodeAt(i), 1);
  return shapes;
}

/**
 * The background map starts this long after the first page: the core serving the first screen's
 * thumbnails comes first (a call maps 50,000 items in ~25 ms, time the core answers nothing else).
 */
export const MAP_START_MS = 1500;
/** The background map waits while the grid's view moves (a scroll): the frames are the user's. */
export const MAP_QUIET_MS = 300;

/** Waits for the renderer to be idle (a frame is never delayed for the background map). */
export const idle = (): Promise<void> =>
  new Promise((resolve) => {
    if (typeof requestIdleCallback === 'function') requestIdleCallback(() => resolve(), { timeout: 1000 });
    else setTimeout(resolve, 16);
  });

/** Waits for a moment when the renderer is idle and the view has been still (`lastMove`: performance.now()) for MAP_QUIET_MS. */
export async function quietMoment(lastMove: () => number): Promise<void> {
  for (;;) {
    await idle();
    const still = performance.now() - lastMove();
    if (still >= MAP_QUIET_MS) return;
    await new Promise((resolve) => setTimeout(resolve, MAP_QUIET_MS - still));
  }
}

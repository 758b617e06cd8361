// The scrolled content of a list taller than a browser lets an element be (the Library's grid at a
// million items): shortened, each scroll position standing for a proportionally lower point of the layout.

/**
 * Browsers cap an element's height (Chromium near 33.5 million px, Firefox near 17.9 million): a
 * million tiles in justified rows are taller. Past the cap the scrolled content is shortened and a
 * scroll position stands for a proportionally lower point of the layout, so the whole list stays
 * reachable; tiles are drawn where that point puts them. The cap is this browser's own, measured
 * once (a probe element given a huge height keeps what the browser allows), with a margin.
 */
export const MAX_SCROLL_HEIGHT = 15_000_000;
let measuredCap: number | null = null;

export function maxScrollHeight(): number {
  if (measuredCap !== null) return measuredCap;
  if (typeof document === 'undefined' || !document.body) return MAX_SCROLL_HEIGHT;
  const probe = document.createElement('div');
  probe.style.cssText = 'position:absolute;visibility:hidden;width:1px;height:1000000000px';
  document.body.append(probe);
  const allowed = probe.offsetHeight;
  probe.remove();
  measuredCap = allowed > 0 ? Math.max(MAX_SCROLL_HEIGHT, Math.floor(allowed * 0.9)) : MAX_SCROLL_HEIGHT;
  return measuredCap;
}

export interface ScrollMap {
  /** Whether the content is shortened (only then does a tile's place depend on the scroll position). */
  scaled: boolean;
  /** The height given to the scrolled content. */
  contentHeight: number;
  /** The layout's y shown at the top of the viewport for a scroll position. */
  layoutTop(scrollTop: number): number;
  /** The scroll position that shows layout `y` at the top of the viewport. */
  scrollTopFor(y: number): number;
  /** Where a layout `y` is drawn inside the content, seen from a scroll position. */
  drawAt(y: number, scrollTop: number): number;
}

export function scrollMap(layoutHeight: number, viewportHeight: number, max = MAX_SCROLL_HEIGHT): ScrollMap {
  if (layoutHeight <= max) {
    return {
      scaled: false,
      contentHeight: layoutHeight,
      layoutTop: (scrollTop) => scrollTop,
      scrollTopFor: (y) => y,
      drawAt: (y) => y,
    };
  }
  // The last scroll position (max − viewport) shows the layout's last screen (height − viewport).
  const scale = Math.max(1, layoutHeight - viewportHeight) / Math.max(1, max - viewportHeight);
  const layoutTop = (scrollTop: number) => scrollTop * scale;
  return {
    scaled: true,
    contentHeight: max,
    layoutTop,
    scrollTopFor: (y) => y / scale,
    drawAt: (y, scrollTop) => y - layoutTop(scrollTop) + scrollTop,
  };
}

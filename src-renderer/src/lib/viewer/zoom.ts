// The viewer's zoom and pan arithmetic, pure: where a picture of a given size sits in a viewport at
// a given scale. "Fit" shows the whole picture and never enlarges past 100 %; zooming keeps the point
// under the pointer in place; a picture smaller than the viewport on an axis is centred on it, a
// larger one never leaves a gap at its edges.

export interface Size {
  width: number;
  height: number;
}

export interface Point {
  x: number;
  y: number;
}

/** The picture drawn at `scale` with its top-left corner at (x, y) of the viewport, in CSS px. */
export interface View {
  scale: number;
  x: number;
  y: number;
}

/** The largest zoom offered (800 %), and how far below "fit" one may zoom out (not at all). */
export const MAX_SCALE = 8;
/** One step of `+`/`-` (and of a wheel notch of 100 px). */
export const ZOOM_STEP = 1.25;

const valid = (size: Size): boolean => size.width > 0 && size.height > 0;
const clamp = (n: number, min: number, max: number): number => Math.min(max, Math.max(min, n));

/** The scale that shows the whole picture, never above 1 (a small picture stays at its size). */
export function fitScale(media: Size, viewport: Size): number {
  if (!valid(media) || !valid(viewport)) return 1;
  return Math.min(1, viewport.width / media.width, viewport.height / media.height);
}

/** Keeps a view reachable: centred on an axis where the picture is smaller, no gap where it is larger. */
export function clampView(view: View, media: Size, viewport: Size): View {
  const axis = (offset: number, length: number, room: number): number =>
    length <= room ? (room - length) / 2 : clamp(offset, room - length, 0);
  return {
    scale: view.scale,
    x: axis(view.x, media.width * view.scale, viewport.width),
    y: axis(view.y, media.height * view.scale, viewport.height),
  };
}

/** The whole picture, centred. */
export function fitView(media: Size, viewport: Size): View {
  return clampView({ scale: fitScale(media, viewport), x: 0, y: 0 }, media, viewport);
}

/** Scale limits for a picture in a viewport: from "fit" (or 100 % when that is smaller) up to MAX_SCALE. */
export function scaleLimits(media: Size, viewport: Size): { min: number; max: number } {
  const fit = fitScale(media, viewport);
  return { min: Math.min(fit, 1), max: Math.max(MAX_SCALE, fit) };
}

/** Zooms to `scale` (clamped to the limits) keeping the picture point under `anchor` where it is. */
export function zoomTo(view: View, scale: number, anchor: Point, media: Size, viewport: Size): View {
  const { min, max } = scaleLimits(media, viewport);
  const next = clamp(scale, min, max);
  const ratio = next / view.scale;
  return clampView(
    { scale: next, x: anchor.x - (anchor.x - view.x) * ratio, y: anchor.y - (anchor.y - view.y) * ratio },
    media,
    viewport,
  );
}

/** Zooms by a factor (> 1 in, < 1 out) around `anchor`. */
export function zoomBy(view: View, factor: number, anchor: Point, media: Size, viewport: Size): View {
  return zoomTo(view, view.scale * factor, anchor, media, viewport);
}

/** The factor a wheel event asks for: 100 px of scrolling (one notch) is one ZOOM_STEP; a pinch (ctrl+wheel) is finer-grained. */
export function wheelFactor(deltaY: number, deltaMode: number, pinch: boolean): number {
  const pixels = deltaMode === 1 ? deltaY * 16 : deltaMode === 2 ? deltaY * 400 : deltaY;
  const perPixel = pinch ? Math.log(ZOOM_STEP) / 25 : Math.log(ZOOM_STEP) / 100;
  return Math.exp(clamp(-pixels, -400, 400) * perPixel);
}

/** Moves the picture by (dx, dy) screen px, within reach. */
export function panBy(view: View, dx: number, dy: number, media: Size, viewport: Size): View {
  return clampView({ scale: view.scale, x: view.x + dx, y: view.y + dy }, media, viewport);
}

/** True when the view is the fit view (within half a pixel). */
export function isFit(view: View, media: Size, viewport: Size): boolean {
  const fit = fitView(media, viewport);
  const w = media.width;
  return (
    Math.abs((view.scale - fit.scale) * w) < 0.5 && Math.abs(view.x - fit.x) < 0.5 && Math.abs(view.y - fit.y) < 0.5
  );
}

/**
 * A click (or `Z`): from fit to 100 % around the anchor; from any other zoom back to fit. A picture
 * that fits at 100 % already goes to 200 %, so the click always shows something.
 */
export function toggleZoom(view: View, anchor: Point, media: Size, viewport: Size): View {
  if (!isFit(view, media, viewport)) return fitView(media, viewport);
  const fit = fitScale(media, viewport);
  return zoomTo(view, fit >= 1 ? 2 : 1, anchor, media, viewport);
}

/** 100 %, around the anchor (the viewport's centre when there is no pointer). */
export function actualSize(view: View, anchor: Point, media: Size, viewport: Size): View {
  return zoomTo(view, 1, anchor, media, viewport);
}

/** Keeps a view sensible when the viewport or the known picture size changes: fit stays fit, a zoom keeps its centre. */
export function resizeView(
  view: View,
  wasFit: boolean,
  before: { media: Size; viewport: Size },
  media: Size,
  viewport: Size,
): View {
  if (wasFit || !valid(before.media) || !valid(before.viewport)) return fitView(media, viewport);
  // The picture point at the old viewport's centre stays at the new one's, at the same scale relative to the picture.
  const scale = (view.scale * before.media.width) / media.width;
  const cx = (before.viewport.width / 2 - view.x) / (before.media.width * view.scale);
  const cy = (before.viewport.height / 2 - view.y) / (before.media.height * view.scale);
  return clampView(
    {
      scale,
      x: viewport.width / 2 - cx * media.width * scale,
      y: viewport.height / 2 - cy * media.height * scale,
    },
    media,
    viewport,
  );
}

/** The part of the viewport the picture covers (where its overlays, e.g. a player's controls, go). */
export function visibleRect(
  view: View,
  media: Size,
  viewport: Size,
): { left: number; top: number; width: number; height: number } {
  const left = Math.max(0, view.x);
  const top = Math.max(0, view.y);
  const right = Math.min(viewport.width, view.x + media.width * view.scale);
  const bottom = Math.min(viewport.height, view.y + media.height * view.scale);
  return { left, top, width: Math.max(0, right - left), height: Math.max(0, bottom - top) };
}

/**
 * A view as the picture sees it, for syncing several pictures of different sizes (compare): the zoom
 * relative to each one's fit, and the picture point (0..1) at the viewport's centre.
 */
export interface RelativeView {
  zoom: number;
  cx: number;
  cy: number;
}

export function toRelative(view: View, media: Size, viewport: Size): RelativeView {
  const fit = fitScale(media, viewport);
  return {
    zoom: view.scale / fit,
    cx: (viewport.width / 2 - view.x) / (media.width * view.scale),
    cy: (viewport.height / 2 - view.y) / (media.height * view.scale),
  };
}

export function fromRelative(relative: RelativeView, media: Size, viewport: Size): View {
  const { min, max } = scaleLimits(media, viewport);
  const scale = clamp(relative.zoom * fitScale(media, viewport), min, max);
  return clampView(
    {
      scale,
      x: viewport.width / 2 - relative.cx * media.width * scale,
      y: viewport.height / 2 - relative.cy * media.height * scale,
    },
    media,
    viewport,
  );
}

/** A picture's size from what is known: its own pixels, else the aspect ratio it was asked for ("16:9"), else square. */
export function sizeOf(
  width: number | null | undefined,
  height: number | null | undefined,
  aspect?: string | null,
): Size {
  if (width && height && width > 0 && height > 0) return { width, height };
  const ratio = parseAspect(aspect);
  return ratio
    ? { width: 1024 * Math.min(1, ratio), height: 1024 * Math.min(1, 1 / ratio) }
    : { width: 1024, height: 1024 };
}

/** "16:9" → 1.777…; null when it is not of the form W:H. */
export function parseAspect(aspect: string | null | undefined): number | null {
  const match = typeof aspect === 'string' ? /^\s*(\d+(?:\.\d+)?)\s*[:/x×]\s*(\d+(?:\.\d+)?)\s*$/.exec(aspect) : null;
  if (!match) return null;
  const w = Number(match[1]);
  const h = Number(match[2]);
  return w > 0 && h > 0 ? w / h : null;
}

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  actualSize,
  clampView,
  fitScale,
  fitView,
  fromRelative,
  isFit,
  panBy,
  parseAspect,
  resizeView,
  sizeOf,
  toggleZoom,
  toRelative,
  visibleRect,
  wheelFactor,
  zoomBy,
  zoomTo,
  MAX_SCALE,
} from './zoom.ts';

const viewport = { width: 940, height: 700 };
const square = { width: 1024, height: 1024 };
const portrait = { width: 1152, height: 2048 };
const wide = { width: 2048, height: 880 };
const small = { width: 300, height: 200 };

/** Where a picture point (in picture px) lands on the screen. */
const screenOf = (view: { scale: number; x: number; y: number }, p: { x: number; y: number }) => ({
  x: view.x + p.x * view.scale,
  y: view.y + p.y * view.scale,
});

describe('fit', () => {
  it.each([
    ['square', square],
    ['portrait 9:16', portrait],
    ['wide 21:9', wide],
  ])('shows the whole %s picture, centred', (_name, media) => {
    const view = fitView(media, viewport);
    const w = media.width * view.scale;
    const h = media.height * view.scale;
    expect(w).toBeLessThanOrEqual(viewport.width + 1e-9);
    expect(h).toBeLessThanOrEqual(viewport.height + 1e-9);
    // One edge touches the viewport: it is as large as it can be.
    expect(Math.max(w / viewport.width, h / viewport.height)).toBeCloseTo(1);
    expect(view.x + w / 2).toBeCloseTo(viewport.width / 2);
    expect(view.y + h / 2).toBeCloseTo(viewport.height / 2);
  });

  it('never enlarges a small picture', () => {
    expect(fitScale(small, viewport)).toBe(1);
    expect(fitView(small, viewport)).toEqual({ scale: 1, x: 320, y: 250 });
  });

  it('holds for any picture and viewport size', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 20_000 }),
        fc.integer({ min: 1, max: 20_000 }),
        fc.integer({ min: 50, max: 4000 }),
        fc.integer({ min: 50, max: 4000 }),
        (mw, mh, vw, vh) => {
          const view = fitView({ width: mw, height: mh }, { width: vw, height: vh });
          expect(view.scale).toBeLessThanOrEqual(1);
          expect(view.x).toBeGreaterThanOrEqual(-1e-6);
          expect(view.y).toBeGreaterThanOrEqual(-1e-6);
          expect(view.x + mw * view.scale).toBeLessThanOrEqual(vw + 1e-6);
          expect(view.y + mh * view.scale).toBeLessThanOrEqual(vh + 1e-6);
        },
      ),
    );
  });

  it('answers 1 for unknown sizes instead of dividing by zero', () => {
    expect(fitScale({ width: 0, height: 0 }, viewport)).toBe(1);
    expect(fitScale(square, { width: 0, height: 0 })).toBe(1);
  });
});

describe('zoom', () => {
  it('keeps the point under the pointer in place once the picture covers the viewport', () => {
    const at100 = actualSize(fitView(square, viewport), { x: 470, y: 350 }, square, viewport);
    expect(at100.scale).toBe(1);
    const anchor = { x: 200, y: 150 };
    const point = { x: (anchor.x - at100.x) / at100.scale, y: (anchor.y - at100.y) / at100.scale };
    const zoomed = zoomBy(at100, 1.5, anchor, square, viewport);
    expect(zoomed.scale).toBeCloseTo(1.5);
    const after = screenOf(zoomed, point);
    expect(after.x).toBeCloseTo(anchor.x);
    expect(after.y).toBeCloseTo(anchor.y);
  });

  it('keeps any anchor fixed when zooming in on a picture that already covers the viewport (property)', () => {
    const at100 = actualSize(fitView(wide, viewport), { x: 470, y: 350 }, wide, viewport);
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: viewport.width, noNaN: true }),
        fc.double({ min: 0, max: viewport.height, noNaN: true }),
        fc.double({ min: 1.01, max: 4, noNaN: true }),
        (ax, ay, factor) => {
          const point = { x: ax - at100.x, y: ay - at100.y };
          const after = screenOf(zoomBy(at100, factor, { x: ax, y: ay }, wide, viewport), point);
          expect(after.x).toBeCloseTo(ax, 6);
          expect(after.y).toBeCloseTo(ay, 6);
        },
      ),
    );
  });

  it('stops at fit going out and at MAX_SCALE going in', () => {
    const fit = fitView(portrait, viewport);
    expect(zoomBy(fit, 0.1, { x: 10, y: 10 }, portrait, viewport)).toEqual(fit);
    expect(zoomTo(fit, 100, { x: 10, y: 10 }, portrait, viewport).scale).toBe(MAX_SCALE);
  });

  it('reads a wheel notch as one step and a pinch more finely', () => {
    expect(wheelFactor(-100, 0, false)).toBeCloseTo(1.25);
    expect(wheelFactor(100, 0, false)).toBeCloseTo(0.8);
    expect(wheelFactor(-3, 1, false)).toBeCloseTo(1.25 ** 0.48);
    expect(wheelFactor(-10, 0, true)).toBeGreaterThan(wheelFactor(-10, 0, false));
  });
});

describe('toggle and 100 %', () => {
  it('goes from fit to 100 % around the pointer and back to fit', () => {
    const fit = fitView(square, viewport);
    expect(isFit(fit, square, viewport)).toBe(true);
    const actual = toggleZoom(fit, { x: 470, y: 350 }, square, viewport);
    expect(actual.scale).toBe(1);
    expect(isFit(actual, square, viewport)).toBe(false);
    expect(toggleZoom(actual, { x: 0, y: 0 }, square, viewport)).toEqual(fit);
  });

  it('takes a picture already shown at 100 % to 200 %', () => {
    const fit = fitView(small, viewport);
    expect(toggleZoom(fit, { x: 470, y: 350 }, small, viewport).scale).toBe(2);
  });
});

describe('pan', () => {
  it('moves a zoomed picture but never past its edges', () => {
    const at100 = actualSize(fitView(square, viewport), { x: 470, y: 350 }, square, viewport);
    const moved = panBy(at100, 30, -20, square, viewport);
    expect(moved.x).toBeCloseTo(at100.x + 30);
    expect(moved.y).toBeCloseTo(at100.y - 20);
    const far = panBy(at100, 5000, 5000, square, viewport);
    expect(far.x).toBe(0);
    expect(far.y).toBe(0);
    const other = panBy(at100, -5000, -5000, square, viewport);
    expect(other.x).toBe(viewport.width - 1024);
    expect(other.y).toBe(viewport.height - 1024);
  });

  it('keeps a picture smaller than the viewport centred', () => {
    expect(panBy(fitView(small, viewport), 100, 100, small, viewport)).toEqual(fitView(small, viewport));
    expect(clampView({ scale: 1, x: -50, y: 0 }, small, viewport).x).toBe(320);
  });
});

describe('resize and relative views', () => {
  it('keeps fit on resize, and a zoom its centre point', () => {
    const other = { width: 1200, height: 900 };
    const fit = fitView(wide, viewport);
    expect(resizeView(fit, true, { media: wide, viewport }, wide, other)).toEqual(fitView(wide, other));
    const zoomed = zoomTo(fit, 2, { x: 300, y: 300 }, wide, viewport);
    const centre = toRelative(zoomed, wide, viewport);
    const after = toRelative(resizeView(zoomed, false, { media: wide, viewport }, wide, other), wide, other);
    expect(after.cx).toBeCloseTo(centre.cx);
    expect(after.cy).toBeCloseTo(centre.cy);
  });

  it('round-trips through the relative view for pictures of different sizes', () => {
    const zoomed = zoomTo(fitView(square, viewport), 2, { x: 300, y: 300 }, square, viewport);
    const rel = toRelative(zoomed, square, viewport);
    const back = fromRelative(rel, square, viewport);
    expect(back.scale).toBeCloseTo(zoomed.scale);
    expect(back.x).toBeCloseTo(zoomed.x);
    const half = { width: 512, height: 512 };
    const other = fromRelative(rel, half, viewport);
    expect(toRelative(other, half, viewport).cx).toBeCloseTo(rel.cx);
  });

  it('tells the part of the viewport the picture covers', () => {
    expect(visibleRect(fitView(small, viewport), small, viewport)).toEqual({
      left: 320,
      top: 250,
      width: 300,
      height: 200,
    });
    const at100 = actualSize(fitView(square, viewport), { x: 470, y: 350 }, square, viewport);
    expect(visibleRect(at100, square, viewport)).toEqual({ left: 0, top: 0, width: 940, height: 700 });
  });
});

describe('sizes', () => {
  it('uses the pixels when known, else the requested aspect ratio, else a square', () => {
    expect(sizeOf(800, 600)).toEqual({ width: 800, height: 600 });
    expect(sizeOf(null, null, '16:9').width / sizeOf(null, null, '16:9').height).toBeCloseTo(16 / 9);
    expect(sizeOf(null, null, '9:16').width / sizeOf(null, null, '9:16').height).toBeCloseTo(9 / 16);
    expect(sizeOf(null, null, 'auto')).toEqual({ width: 1024, height: 1024 });
    expect(parseAspect('21:9')).toBeCloseTo(21 / 9);
    expect(parseAspect('1920x1080')).toBeCloseTo(16 / 9);
    expect(parseAspect('x')).toBeNull();
  });
});

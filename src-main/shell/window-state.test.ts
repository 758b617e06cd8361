import { describe, expect, it } from 'vitest';
import { captureWindowState, placeWindow, type Rect } from './window-state.ts';

const rules = { width: 1280, height: 820, minWidth: 900, minHeight: 600 };
const laptop: Rect = { x: 0, y: 25, width: 1440, height: 875 };
const external: Rect = { x: 1440, y: 0, width: 2560, height: 1415 };

describe('placeWindow', () => {
  it('uses the default size, centred by the OS, the first time', () => {
    expect(placeWindow(null, [laptop], rules)).toEqual({ bounds: { width: 1280, height: 820 }, maximized: false });
  });

  it('keeps remembered bounds that are still on a display', () => {
    const saved = { x: 1600, y: 100, width: 1500, height: 1000, maximized: false };
    expect(placeWindow(saved, [laptop, external], rules)).toEqual({
      bounds: { x: 1600, y: 100, width: 1500, height: 1000 },
      maximized: false,
    });
  });

  it('moves the window to the main display when its monitor was unplugged, keeping size and maximized', () => {
    const saved = { x: 1600, y: 100, width: 1200, height: 800, maximized: true };
    expect(placeWindow(saved, [laptop], rules)).toEqual({ bounds: { width: 1200, height: 800 }, maximized: true });
  });

  it('shrinks a window larger than the display it is on and pulls it back inside', () => {
    const saved = { x: 400, y: 300, width: 3000, height: 2000, maximized: false };
    expect(placeWindow(saved, [laptop, external], rules)).toEqual({
      bounds: { x: 0, y: 25, width: 1440, height: 875 },
      maximized: false,
    });
  });

  it('treats a window whose title bar is off every screen as lost', () => {
    // Only the bottom of the window would be visible: nothing to grab it by.
    const saved = { x: 100, y: -790, width: 1200, height: 800, maximized: false };
    expect(placeWindow(saved, [laptop], rules).bounds).toEqual({ width: 1200, height: 800 });
  });

  it('keeps a window that hangs partly off a display edge but can still be grabbed', () => {
    const saved = { x: 1300, y: 200, width: 1000, height: 700, maximized: false };
    expect(placeWindow(saved, [laptop], rules).bounds).toEqual({ x: 440, y: 200, width: 1000, height: 700 });
  });

  it('never goes below the minimum size, whatever was stored', () => {
    const saved = { x: 10, y: 40, width: 200, height: 200, maximized: false };
    expect(placeWindow(saved, [laptop], rules).bounds).toEqual({ x: 10, y: 40, width: 900, height: 600 });
  });

  it('ignores garbage numbers instead of crashing', () => {
    const saved = { x: Number.NaN, y: 10, width: Number.POSITIVE_INFINITY, height: 700, maximized: false };
    expect(placeWindow(saved, [laptop], rules)).toEqual({ bounds: { width: 1280, height: 820 }, maximized: false });
  });

  it('still returns a usable size with no display information at all', () => {
    expect(placeWindow({ x: 5, y: 5, width: 1000, height: 700, maximized: false }, [], rules)).toEqual({
      bounds: { width: 1000, height: 700 },
      maximized: false,
    });
  });
});

describe('captureWindowState', () => {
  it('remembers the normal bounds (not the maximized ones) and the maximized flag', () => {
    const state = captureWindowState(
      {
        getNormalBounds: () => ({ x: 10.4, y: 20.6, width: 1000.2, height: 700 }),
        isMaximized: () => true,
        isFullScreen: () => false,
      },
      rules,
    );
    expect(state).toEqual({ x: 10, y: 21, width: 1000, height: 700, maximized: true });
  });

  it('counts full screen as maximized and never stores a size below the minimum', () => {
    const state = captureWindowState(
      {
        getNormalBounds: () => ({ x: 0, y: 0, width: 100, height: 100 }),
        isMaximized: () => false,
        isFullScreen: () => true,
      },
      rules,
    );
    expect(state).toEqual({ x: 0, y: 0, width: 900, height: 600, maximized: true });
  });
});

// Where the main window opens: the remembered bounds when they still make sense on the
// displays connected now, otherwise a sane default. Pure, so it is tested without Electron.

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** What is remembered between runs (the settings' windowState). */
export interface SavedWindowState {
  x?: number;
  y?: number;
  width: number;
  height: number;
  maximized: boolean;
}

export interface WindowPlacement {
  /** x/y absent → the OS centres the window. */
  bounds: { x?: number; y?: number; width: number; height: number };
  maximized: boolean;
}

export interface WindowSizeRules {
  width: number;
  height: number;
  minWidth: number;
  minHeight: number;
}

/** How much of the title bar must be on a display for the window to count as reachable. */
const GRAB_WIDTH = 120;
const GRAB_HEIGHT = 32;

const overlap = (a: Rect, b: Rect): Rect | null => {
  const x = Math.max(a.x, b.x);
  const y = Math.max(a.y, b.y);
  const right = Math.min(a.x + a.width, b.x + b.width);
  const bottom = Math.min(a.y + a.height, b.y + b.height);
  return right > x && bottom > y ? { x, y, width: right - x, height: bottom - y } : null;
};

const finite = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n);

/**
 * Picks the window's bounds. The remembered position is kept only if a grabbable piece of the
 * title bar is on some display's work area (a monitor may have been unplugged since); the size
 * is clamped to the rules and to the display the window lands on.
 */
export function placeWindow(
  saved: SavedWindowState | null,
  workAreas: readonly Rect[],
  rules: WindowSizeRules,
): WindowPlacement {
  const primary = workAreas[0];
  const fitTo = (area: Rect | undefined, width: number, height: number) => ({
    width: Math.round(Math.max(rules.minWidth, area ? Math.min(width, area.width) : width)),
    height: Math.round(Math.max(rules.minHeight, area ? Math.min(height, area.height) : height)),
  });
  const fallback = (maximized: boolean, width = rules.width, height = rules.height): WindowPlacement => ({
    bounds: fitTo(primary, width, height),
    maximized,
  });

  if (!saved || !finite(saved.width) || !finite(saved.height)) return fallback(false);
  const maximized = saved.maximized === true;
  if (!finite(saved.x) || !finite(saved.y)) return fallback(maximized, saved.width, saved.height);

  const titleBar: Rect = { x: saved.x, y: saved.y, width: saved.width, height: GRAB_HEIGHT };
  const home = workAreas.find((area) => {
    const visible = overlap(titleBar, area);
    return visible !== null && visible.width >= Math.min(GRAB_WIDTH, saved.width) && visible.height >= GRAB_HEIGHT / 2;
  });
  if (!home) return fallback(maximized, saved.width, saved.height);

  const size = fitTo(home, saved.width, saved.height);
  // Shrinking may not be enough: pull the window back inside the display it belongs to.
  const x = Math.round(Math.min(Math.max(saved.x, home.x), home.x + home.width - size.width));
  const y = Math.round(Math.min(Math.max(saved.y, home.y), home.y + home.height - size.height));
  return { bounds: { x, y, ...size }, maximized };
}

/** The part of a BrowserWindow read when remembering its state. */
export interface WindowGeometry {
  getNormalBounds(): Rect;
  isMaximized(): boolean;
  isFullScreen(): boolean;
}

/** What to remember: the normal (unmaximized) bounds plus the maximized flag; full screen counts as maximized. */
export function captureWindowState(
  win: WindowGeometry,
  rules: Pick<WindowSizeRules, 'minWidth' | 'minHeight'>,
): SavedWindowState {
  const bounds = win.getNormalBounds();
  return {
    x: Math.round(bounds.x),
    y: Math.round(bounds.y),
    width: Math.round(Math.max(bounds.width, rules.minWidth)),
    height: Math.round(Math.max(bounds.height, rules.minHeight)),
    maximized: win.isMaximized() || win.isFullScreen(),
  };
}

// The one pacing policy of the library's background work over the whole library (the start-up
// check of local files, the thumbnails made for downloaded assets): it works in short slices,
// each followed by as long a pause, so a request arriving meanwhile (the grid's first page, a
// thumbnail) waits one slice at most, and the work never takes more than half of the process.
// While the core serves the user (a renderer's call, a media file: `Foreground`), the work waits
// for a quiet moment, as a browser's idle callback does: the first screen and a scroll come first.

/**
 * The longest background work holds the event loop at once. A batch of 500 file checks took 5–45
 * ms on a busy machine, and one query over a million assets' rows ~0.6 s: at a million assets this
 * work runs through the first seconds after a start, when the renderer asks for its first page.
 */
export const SLICE_MS = 4;

/** Background work waits until the user has not been served for this long… */
export const QUIET_MS = 150;
/** …but never longer than this at once: a renderer that keeps asking does not stop the work. */
export const MAX_QUIET_WAIT_MS = 2000;

/** When the core last served the user: renderer calls and media files note it (core.ts). */
export interface Foreground {
  /** The user is being served now. */
  served(): void;
  /** ms since the user was last served (Infinity before the first time). */
  quietFor(): number;
}

export function createForeground(now: () => number = () => performance.now()): Foreground {
  let last = -Infinity;
  return {
    served: () => void (last = now()),
    quietFor: () => now() - last,
  };
}

export interface PaceOptions {
  /** Stops the pauses short (the work checks it and ends). */
  signal?: AbortSignal;
  /** The longest the work holds the event loop at once (tests: 0, a pause after every step). */
  sliceMs?: number;
  /** Whom the work gives way to; none: slices and pauses only. */
  foreground?: Foreground;
}

/** Waits `ms`, or less if `signal` aborts (never rejects). */
export const pause = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });

/**
 * Returns the call to make between two steps of the work: once the current slice has lasted
 * `sliceMs`, it pauses as long as the slice took (less if `signal` aborts), then, while the user
 * was served less than QUIET_MS ago, until a quiet moment (MAX_QUIET_WAIT_MS at most); then a new
 * slice starts.
 */
export function pacer({ signal, sliceMs = SLICE_MS, foreground }: PaceOptions = {}): () => Promise<void> {
  let sliceStarted = performance.now();
  return async () => {
    const worked = performance.now() - sliceStarted;
    if (worked < sliceMs) return;
    await pause(worked, signal);
    if (foreground) await quietMoment(foreground, signal);
    sliceStarted = performance.now();
  };
}

async function quietMoment(foreground: Foreground, signal?: AbortSignal): Promise<void> {
  const started = performance.now();
  for (;;) {
    const wait = QUIET_MS - foreground.quietFor();
    const left = MAX_QUIET_WAIT_MS - (performance.now() - started);
    if (wait <= 0 || left <= 0 || signal?.aborted) return;
    await pause(Math.min(wait, left), signal);
  }
}

// The one pacing policy of the library's background work over the whole library (the start-up
// check of local files, the thumbnails made for downloaded assets): it works in short slices,
// each followed by as long a pause, so a request arriving meanwhile (the grid's first page, a
// thumbnail) waits one slice at most, and the work never takes more than half of the process.

/**
 * The longest background work holds the event loop at once. A batch of 500 file checks took 5–45
 * ms on a busy machine, and one query over a million assets' rows ~0.6 s: at a million assets this
 * work runs through the first seconds after a start, when the renderer asks for its first page.
 */
export const SLICE_MS = 4;

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
 * `sliceMs`, it pauses as long as the slice took (less if `signal` aborts), then a new slice starts.
 */
export function pacer(signal?: AbortSignal, sliceMs = SLICE_MS): () => Promise<void> {
  let sliceStarted = performance.now();
  return async () => {
    const worked = performance.now() - sliceStarted;
    if (worked < sliceMs) return;
    await pause(worked, signal);
    sliceStarted = performance.now();
  };
}

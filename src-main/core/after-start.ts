// Code the first screen does not need (the jobs engine, the upload queue, the library's download
// queue and thumbnails) is loaded after the start instead of in it: on its first use, or once the
// start has handed the event loop back (a timer turn), whichever comes first. `import()` reads and
// compiles a module as it is called, so calling it inside the start would still pay for it there.

export interface LoadedAfterStart<T> {
  /** Resolves once the code has loaded, without hurrying it. */
  readonly loaded: Promise<T>;
  /** A first use: starts loading now if it has not started yet. */
  now(): Promise<T>;
}

export function loadAfterStart<T>(load: () => Promise<T>): LoadedAfterStart<T> {
  let begin!: (loading: Promise<T>) => void;
  const loaded = new Promise<T>((resolve) => (begin = resolve));
  let started = false;
  const now = (): Promise<T> => {
    if (!started) {
      started = true;
      begin(load());
    }
    return loaded;
  };
  // A failure is reported by whoever waits for the code. Not unref'd: a close waiting for the
  // code must not find the event loop empty.
  setTimeout(() => void now().catch(() => undefined), 0);
  return { loaded, now };
}

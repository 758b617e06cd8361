// The app's lifecycle listeners, registered right after the single-instance lock so that a
// second launch, a dock click or a quit during a slow start is never lost: each waits for the
// window (or the resources made so far) instead. Quit holds until every closer ran, with a deadline.
import { createShutdown } from '../shutdown.ts';

/** The part of Electron's `app` this uses. */
export interface LifecycleApp {
  on(event: 'second-instance' | 'activate' | 'window-all-closed', listener: () => void): unknown;
  on(event: 'before-quit', listener: (event: { preventDefault(): void }) => void): unknown;
  quit(): void;
}

export interface Lifecycle {
  /** True from the first quit request on (menu, tray, Cmd+Q, a signal, the OS logging out). */
  quitting(): boolean;
  /** Counts as quitting from now on, before Electron says so (an update install closes the windows first). */
  markQuitting(): void;
  /** What a second launch or a dock click does once the window exists; one asked for earlier runs now. */
  whenShown(show: () => void): void;
  /** Run on quit (or on a failed start), the latest added first; each runs once. */
  addCloser(name: string, run: () => unknown): void;
  /** Runs the closers not run yet (a failed start uses this; quit does it by itself). */
  closeAll(): Promise<void>;
}

export interface LifecycleOptions {
  platform: NodeJS.Platform;
  deadlineMs: number;
  log(message: string, error?: unknown): void;
  /** Where SIGINT/SIGTERM are heard (the process); absent in tests. */
  signals?: { once(signal: 'SIGINT' | 'SIGTERM', listener: () => void): unknown };
}

interface Closer {
  name: string;
  run(): Promise<void> | void;
}

export function listenToLifecycle(app: LifecycleApp, options: LifecycleOptions): Lifecycle {
  let quitting = false;
  let show: (() => void) | null = null;
  let showAsked = false;
  const closers: Closer[] = [];

  const closeAll = async (): Promise<void> => {
    // Taken off the list first: a closer added while these run (a step that was still
    // finishing) is left for the next call.
    const due = closers.splice(0).reverse();
    await createShutdown(due, {
      deadlineMs: options.deadlineMs,
      onProblem: (step, error) => options.log(`shutdown step ${step} failed`, error),
    }).run();
  };

  const askToShow = (): void => {
    if (show) show();
    else showAsked = true;
  };
  app.on('second-instance', askToShow);
  app.on('activate', askToShow);
  app.on('window-all-closed', () => {
    // macOS apps stay in the dock without windows; elsewhere the last window closing quits.
    if (options.platform !== 'darwin') app.quit();
  });

  let closing: Promise<void> | null = null;
  let closed = false;
  app.on('before-quit', (event) => {
    quitting = true;
    if (closed) return;
    // Hold the quit until SQLite and downloads have closed, then quit for real.
    event.preventDefault();
    closing ??= closeAll().then(() => {
      closed = true;
      app.quit();
    });
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) options.signals?.once(signal, () => app.quit());

  return {
    quitting: () => quitting,
    markQuitting: () => void (quitting = true),
    whenShown(next) {
      show = next;
      if (showAsked) {
        showAsked = false;
        next();
      }
    },
    addCloser(name, run) {
      closers.push({ name, run: async () => void (await run()) });
    },
    closeAll,
  };
}

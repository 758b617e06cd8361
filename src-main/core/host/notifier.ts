// What the background engine tells the user outside the window (a job finished, a training
// ended), and the one policy for batching bursts of them. The shell shows OS notifications;
// browser mode and the CLI log them or stay silent.

export interface NotificationRequest {
  title: string;
  body: string;
  /** What a click opens: the asset when known, otherwise the job. */
  jobId?: string;
  assetId?: string;
}

/** Where a notification click leads; the host focuses its window and tells the renderer. */
export type NotificationTarget = Pick<NotificationRequest, 'jobId' | 'assetId'>;

export interface Notifier {
  notify(notification: NotificationRequest): void;
}

export const silentNotifier: Notifier = { notify() {} };

/** For hosts without a desktop (browser mode, the CLI): one log line per notification. */
export function createLogNotifier(log: (line: string) => void): Notifier {
  return { notify: ({ title, body }) => log(`${title}: ${body}`) };
}

/** Asks `enabled` (the user's Notifications setting) at the moment of notifying. */
export function gateNotifier(inner: Notifier, enabled: () => boolean): Notifier {
  return {
    notify(notification) {
      if (enabled()) inner.notify(notification);
    },
  };
}

/** When a burst goes out and when it is summarised: for every host (the app, browser mode, the CLI). */
export const NOTIFICATION_BURST = {
  /** How long after the first item to wait for others. */
  windowMs: 3_000,
  /** More than this many in one burst → one summary. */
  summarizeAbove: 3,
} as const;

/** The timers a burst runs on (the engine's clock in tests, setTimeout otherwise). */
export interface BurstTimers {
  setTimer(fn: () => void, ms: number): unknown;
  clearTimer(handle: unknown): void;
}

const realTimers: BurstTimers = {
  setTimer: (fn, ms) => setTimeout(fn, ms),
  clearTimer: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export interface Burst<T> {
  add(item: T): void;
  /** While held (e.g. a poll round in progress), a due delivery waits for the release. */
  hold(): () => void;
  /** Delivers what arrived, now (unless held). */
  flush(): void;
  /** Takes back items a delivery could not handle: they go out with the next one, no new window. */
  keep(items: readonly T[]): void;
}

/**
 * The one notification-batching policy. Many jobs often finish at once (after a resume, a
 * batch): the first item opens a window of `windowMs`, and everything that arrived by its end
 * is delivered together, so one burst becomes one delivery instead of a wall of them.
 */
export function createBurst<T>(
  deliver: (items: T[]) => void,
  windowMs: number,
  timers: BurstTimers = realTimers,
): Burst<T> {
  let pending: T[] = [];
  let timer: unknown = null;
  let holds = 0;
  let flushWanted = false;
  const flush = (): void => {
    if (holds > 0) {
      flushWanted = true;
      return;
    }
    flushWanted = false;
    if (timer !== null) timers.clearTimer(timer);
    timer = null;
    const items = pending;
    pending = [];
    if (items.length > 0) deliver(items);
  };
  return {
    add(item) {
      pending.push(item);
      timer ??= timers.setTimer(() => {
        timer = null;
        flush();
      }, windowMs);
    },
    hold() {
      holds += 1;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        holds -= 1;
        if (holds === 0 && flushWanted) flush();
      };
    },
    flush,
    keep(items) {
      pending.push(...items);
    },
  };
}

/** How a burst is said: one notification each up to `summarizeAbove`, beyond that one summary. */
export function announceBurst<T>(
  notifier: Notifier,
  items: readonly T[],
  say: { one(item: T): NotificationRequest; summary(items: readonly T[]): NotificationRequest },
  summarizeAbove: number,
): void {
  if (items.length > summarizeAbove) notifier.notify(say.summary(items));
  else for (const item of items) notifier.notify(say.one(item));
}

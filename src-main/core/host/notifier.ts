// What the background engine tells the user outside the window (a job finished, a download
// failed). The shell shows OS notifications; browser mode and the CLI log them or stay silent.

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

export interface CoalescingOptions {
  /** How long to wait for more notifications before showing what arrived. */
  windowMs: number;
  /** The one notification shown instead of `count` (> 1) that arrived together. */
  summarize(items: readonly NotificationRequest[]): NotificationRequest;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
}

/**
 * Many jobs often finish at once (after a resume, a batch): one notification per burst
 * instead of a wall of them. A single notification keeps its own title and click target.
 */
export function coalesceNotifier(inner: Notifier, options: CoalescingOptions): Notifier & { flush(): void } {
  const setTimer = options.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
  const clearTimer = options.clearTimer ?? ((handle) => clearTimeout(handle as NodeJS.Timeout));
  let pending: NotificationRequest[] = [];
  let timer: unknown = null;
  const flush = (): void => {
    if (timer !== null) clearTimer(timer);
    timer = null;
    const items = pending;
    pending = [];
    if (items.length === 1 && items[0]) inner.notify(items[0]);
    else if (items.length > 1) inner.notify(options.summarize(items));
  };
  return {
    notify(notification) {
      pending.push(notification);
      timer ??= setTimer(flush, options.windowMs);
    },
    flush,
  };
}

// Electron's Notification as the engine's Notifier: a click brings the window forward and opens
// the finished asset. Shown notifications are held until closed so a click still reaches us
// (a garbage-collected Notification loses its click handler).
import type { Notifier, NotificationTarget } from '../core/host/notifier.ts';

export interface NotificationLike {
  on(event: 'click' | 'close', listener: () => void): unknown;
  show(): void;
}

export interface OsNotifierOptions {
  isSupported(): boolean;
  create(options: { title: string; body: string }): NotificationLike;
  onOpen(target: NotificationTarget): void;
  /** Notifications kept alive at most; the oldest are let go first. */
  keep?: number;
}

export function createOsNotifier(options: OsNotifierOptions): Notifier {
  const alive: NotificationLike[] = [];
  const keep = options.keep ?? 20;
  const release = (n: NotificationLike): void => {
    const index = alive.indexOf(n);
    if (index >= 0) alive.splice(index, 1);
  };
  return {
    notify({ title, body, jobId, assetId }) {
      if (!options.isSupported()) return;
      const notification = options.create({ title: title.slice(0, 120), body: body.slice(0, 400) });
      const target: NotificationTarget = {};
      if (assetId) target.assetId = assetId;
      if (jobId) target.jobId = jobId;
      notification.on('click', () => {
        release(notification);
        options.onOpen(target);
      });
      notification.on('close', () => release(notification));
      alive.push(notification);
      if (alive.length > keep) alive.shift();
      notification.show();
    },
  };
}

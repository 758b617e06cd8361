import { describe, expect, it, vi } from 'vitest';
import {
  announceBurst,
  createBurst,
  createLogNotifier,
  NOTIFICATION_BURST,
  gateNotifier,
  type NotificationRequest,
  type Notifier,
} from './notifier.ts';

function recording(): Notifier & { shown: NotificationRequest[] } {
  const shown: NotificationRequest[] = [];
  return { shown, notify: (n) => void shown.push(n) };
}

describe('notifiers', () => {
  it('gate asks the setting at the moment of notifying', () => {
    const inner = recording();
    let enabled = false;
    const gated = gateNotifier(inner, () => enabled);
    gated.notify({ title: 'a', body: '1' });
    enabled = true;
    gated.notify({ title: 'b', body: '2' });
    expect(inner.shown.map((n) => n.title)).toEqual(['b']);
  });

  it('log notifier writes one line per notification', () => {
    const lines: string[] = [];
    createLogNotifier((line) => lines.push(line)).notify({ title: 'Video ready', body: 'beach.mp4', assetId: 'v1' });
    expect(lines).toEqual(['Video ready: beach.mp4']);
  });

  it('a burst delivers together what arrived within its window, and a hold makes it wait', () => {
    vi.useFakeTimers();
    try {
      const delivered: number[][] = [];
      const burst = createBurst<number>((items) => delivered.push(items), 1_000);
      burst.add(1);
      vi.advanceTimersByTime(999);
      burst.add(2);
      expect(delivered).toEqual([]);
      vi.advanceTimersByTime(1);
      expect(delivered).toEqual([[1, 2]]);

      const release = burst.hold();
      burst.add(3);
      vi.advanceTimersByTime(5_000);
      burst.flush();
      expect(delivered).toHaveLength(1);
      burst.add(4);
      release();
      release();
      expect(delivered).toEqual([
        [1, 2],
        [3, 4],
      ]);

      burst.keep([5]);
      vi.advanceTimersByTime(5_000);
      expect(delivered).toHaveLength(2);
      burst.flush();
      expect(delivered.at(-1)).toEqual([5]);
      burst.flush();
      expect(delivered).toHaveLength(3);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a burst is said one by one up to the threshold and as one summary beyond it', () => {
    const inner = recording();
    const say = {
      one: (n: number) => ({ title: `job ${n}`, body: 'ready' }),
      summary: (items: readonly number[]) => ({ title: `${items.length} jobs finished`, body: '' }),
    };
    announceBurst(inner, [1, 2, 3], say, NOTIFICATION_BURST.summarizeAbove);
    expect(inner.shown.map((n) => n.title)).toEqual(['job 1', 'job 2', 'job 3']);
    announceBurst(inner, [1, 2, 3, 4], say, NOTIFICATION_BURST.summarizeAbove);
    expect(inner.shown.at(-1)).toEqual({ title: '4 jobs finished', body: '' });
    expect(inner.shown).toHaveLength(4);
  });
});

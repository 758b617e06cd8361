import { describe, expect, it, vi } from 'vitest';
import {
  coalesceNotifier,
  createLogNotifier,
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

  it('coalescing keeps a lone notification as it is and merges a burst into one', () => {
    vi.useFakeTimers();
    try {
      const inner = recording();
      const notifier = coalesceNotifier(inner, {
        windowMs: 1_000,
        summarize: (items) => ({ title: 'Atelier', body: `${items.length} jobs finished` }),
      });
      notifier.notify({ title: 'Image ready', body: 'one', assetId: 'img_1' });
      vi.advanceTimersByTime(1_000);
      expect(inner.shown).toEqual([{ title: 'Image ready', body: 'one', assetId: 'img_1' }]);

      for (let i = 0; i < 12; i += 1) notifier.notify({ title: 'Image ready', body: String(i) });
      expect(inner.shown).toHaveLength(1);
      vi.advanceTimersByTime(1_000);
      expect(inner.shown.at(-1)).toEqual({ title: 'Atelier', body: '12 jobs finished' });

      notifier.notify({ title: 'last', body: 'x' });
      notifier.flush();
      expect(inner.shown.at(-1)?.title).toBe('last');
      vi.advanceTimersByTime(5_000);
      expect(inner.shown).toHaveLength(3);
    } finally {
      vi.useRealTimers();
    }
  });
});

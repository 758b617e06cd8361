import { describe, expect, it } from 'vitest';
import type { NotificationTarget } from '../core/host/notifier.ts';
import { createOsNotifier, type NotificationLike } from './os-notifier.ts';

class FakeNotification implements NotificationLike {
  readonly options: { title: string; body: string };
  shown = false;
  private readonly listeners = new Map<string, (() => void)[]>();
  constructor(options: { title: string; body: string }) {
    this.options = options;
  }
  on(event: 'click' | 'close', listener: () => void) {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return this;
  }
  show() {
    this.shown = true;
  }
  emit(event: 'click' | 'close') {
    for (const listener of this.listeners.get(event) ?? []) listener();
  }
}

function setup(supported = true) {
  const created: FakeNotification[] = [];
  const opened: NotificationTarget[] = [];
  const notifier = createOsNotifier({
    isSupported: () => supported,
    create: (options) => {
      const n = new FakeNotification(options);
      created.push(n);
      return n;
    },
    onOpen: (target) => opened.push(target),
  });
  return { notifier, created, opened };
}

describe('OS notifier', () => {
  it('shows a notification and opens its asset on click', () => {
    const { notifier, created, opened } = setup();
    notifier.notify({ title: 'Image ready', body: 'sunset, 1024×1024', jobId: 'job_1', assetId: 'img_9' });
    expect(created).toHaveLength(1);
    expect(created[0]?.shown).toBe(true);
    expect(created[0]?.options).toEqual({ title: 'Image ready', body: 'sunset, 1024×1024' });
    created[0]?.emit('click');
    expect(opened).toEqual([{ jobId: 'job_1', assetId: 'img_9' }]);
  });

  it('opens the job when there is no asset, and nothing extra when neither is known', () => {
    const { notifier, created, opened } = setup();
    notifier.notify({ title: 'Training failed', body: 'Not enough faces', jobId: 'job_2' });
    notifier.notify({ title: 'Downloads paused', body: 'Disk full' });
    created[0]?.emit('click');
    created[1]?.emit('click');
    expect(opened).toEqual([{ jobId: 'job_2' }, {}]);
  });

  it('stays quiet where the OS has no notifications', () => {
    const { notifier, created } = setup(false);
    notifier.notify({ title: 'x', body: 'y' });
    expect(created).toEqual([]);
  });

  it('cuts overly long text to what a notification can show', () => {
    const { notifier, created } = setup();
    notifier.notify({ title: 't'.repeat(500), body: 'b'.repeat(5000) });
    expect(created[0]?.options.title).toHaveLength(120);
    expect(created[0]?.options.body).toHaveLength(400);
  });
});

// One store of what outlives a call: newest first, each awaited, a failure never stops the rest.
import { describe, expect, it } from 'vitest';
import { Disposables } from './disposables.ts';

function store() {
  const failed: string[] = [];
  const lifetime = new Disposables((name) => void failed.push(name));
  return { lifetime, failed };
}

describe('Disposables', () => {
  it('stops a service that started later before the ones it started after', async () => {
    const { lifetime } = store();
    const stopped: string[] = [];
    lifetime.add('sync', () => void stopped.push('sync'));
    lifetime.add('library', () => void stopped.push('library'));
    // The jobs engine starts once its code has loaded, after the others.
    await Promise.resolve();
    lifetime.add('jobs engine', () => void stopped.push('jobs engine'));
    await lifetime.close();
    expect(stopped).toEqual(['jobs engine', 'library', 'sync']);
    expect(lifetime.size).toBe(0);
  });

  it('closes the rest when one closer throws or rejects, and names the ones that failed', async () => {
    const { lifetime, failed } = store();
    const stopped: string[] = [];
    lifetime.add('first', () => void stopped.push('first'));
    lifetime.add('throws', () => {
      throw new Error('no');
    });
    lifetime.add('rejects', () => Promise.reject(new Error('no')));
    lifetime.add('last', () => void stopped.push('last'));
    await lifetime.close();
    expect(stopped).toEqual(['last', 'first']);
    expect(failed).toEqual(['rejects', 'throws']);
  });

  it('awaits a pending closer before the next one, and close() before it ends', async () => {
    const { lifetime } = store();
    const order: string[] = [];
    let finish!: () => void;
    lifetime.add('older', () => void order.push('older'));
    lifetime.add('pending lookup', () => new Promise<void>((resolve) => (finish = resolve)));
    let closed = false;
    const closing = lifetime.close().then(() => (closed = true));
    // Several turns: nothing after the pending closer runs, and close() has not ended.
    for (let i = 0; i < 5; i++) await Promise.resolve();
    expect(order).toEqual([]);
    expect(closed).toBe(false);
    order.push('lookup answered');
    finish();
    await closing;
    expect(order).toEqual(['lookup answered', 'older']);
    expect(closed).toBe(true);
  });

  it('closes once when asked twice, and closes at once what is added after', async () => {
    const { lifetime } = store();
    let runs = 0;
    lifetime.add('once', () => void runs++);
    const first = lifetime.close();
    expect(lifetime.close()).toBe(first);
    await first;
    expect(runs).toBe(1);
    expect(lifetime.closed).toBe(true);
    let late = false;
    lifetime.add('late', () => void (late = true));
    await Promise.resolve();
    expect(late).toBe(true);
  });

  it('forgets what ended on its own, and clears a timer that has not fired', async () => {
    const { lifetime } = store();
    const remove = lifetime.add('lookup', () => {
      throw new Error('must not run: it already ended');
    });
    remove();
    let fired = false;
    lifetime.setTimeout('demo downloads', () => (fired = true), 30);
    expect(lifetime.size).toBe(1);
    await lifetime.close();
    expect(lifetime.size).toBe(0);
    // Past the timer's delay: cleared, it never fires.
    await new Promise((resolve) => setTimeout(resolve, 90));
    expect(fired).toBe(false);
  });

  it('forgets a timer once it has fired', async () => {
    const { lifetime } = store();
    let fired = false;
    lifetime.setTimeout('soon', () => (fired = true), 1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(fired).toBe(true);
    expect(lifetime.size).toBe(0);
  });
});

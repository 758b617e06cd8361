import { describe, expect, it } from 'vitest';
import { createShutdown } from './shutdown.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('createShutdown', () => {
  it('runs every step once, in order, waiting for each', async () => {
    const order: string[] = [];
    const shutdown = createShutdown(
      [
        { name: 'a', run: async () => void (await sleep(10), order.push('a')) },
        { name: 'b', run: () => void order.push('b') },
      ],
      { deadlineMs: 1_000 },
    );
    expect(shutdown.started()).toBe(false);
    const first = shutdown.run();
    const second = shutdown.run();
    expect(second).toBe(first);
    await first;
    expect(order).toEqual(['a', 'b']);
    await shutdown.run();
    expect(order).toEqual(['a', 'b']);
  });

  it('keeps going after a failing step and reports it', async () => {
    const problems: string[] = [];
    const ran: string[] = [];
    const shutdown = createShutdown(
      [
        { name: 'broken', run: () => Promise.reject(new Error('disk gone')) },
        { name: 'after', run: () => void ran.push('after') },
      ],
      { deadlineMs: 1_000, onProblem: (step) => problems.push(step) },
    );
    await shutdown.run();
    expect(problems).toEqual(['broken']);
    expect(ran).toEqual(['after']);
  });

  it('gives up on a step that never finishes, so quitting always quits', async () => {
    const problems: string[] = [];
    const shutdown = createShutdown([{ name: 'stuck', run: () => new Promise<void>(() => {}) }], {
      deadlineMs: 30,
      onProblem: (step) => problems.push(step),
    });
    const started = Date.now();
    await shutdown.run();
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(problems).toEqual(['shutdown']);
  });
});

import { describe, expect, it } from 'vitest';
import { keepAwakeWhileBusy, type PowerSaveBlockerLike } from './keep-awake.ts';

function blocker() {
  const started = new Set<number>();
  const calls: string[] = [];
  let next = 1;
  const fake: PowerSaveBlockerLike = {
    start(type) {
      calls.push(`start ${type}`);
      started.add(next);
      return next++;
    },
    stop(id) {
      if (!started.delete(id)) throw new Error(`stopping blocker ${id} that is not started`);
      calls.push(`stop ${id}`);
    },
  };
  return { fake, started, calls };
}

describe('keep awake while busy', () => {
  it('holds one blocker while jobs or transfers are in flight and releases it when idle', () => {
    const { fake, started, calls } = blocker();
    const awake = keepAwakeWhileBusy(fake);
    awake.setJobs({ queued: 0, running: 0 });
    expect(started.size).toBe(0);
    awake.setJobs({ queued: 1, running: 0 });
    awake.setJobs({ queued: 0, running: 2 });
    awake.setTransfers(true);
    expect(started.size).toBe(1);
    expect(awake.busy()).toBe(true);
    awake.setJobs({ queued: 0, running: 0 });
    expect(started.size).toBe(1);
    awake.setTransfers(false);
    expect(started.size).toBe(0);
    expect(awake.busy()).toBe(false);
    awake.setTransfers(true);
    expect(calls).toEqual(['start prevent-app-suspension', 'stop 1', 'start prevent-app-suspension']);
  });

  it('ignores nonsense counts and lets go for good on stop', () => {
    const { fake, started } = blocker();
    const awake = keepAwakeWhileBusy(fake);
    awake.setJobs({ queued: Number.NaN, running: -1 });
    expect(started.size).toBe(0);
    awake.setJobs({ queued: 3, running: 0 });
    expect(started.size).toBe(1);
    awake.stop();
    expect(started.size).toBe(0);
    awake.setTransfers(true);
    expect(started.size).toBe(0);
  });
});

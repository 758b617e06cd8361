// Timers that write to the database must survive a full disk (SQLITE_FULL): a throw from a timer
// ends the process. The finish notifier's window and the work-claims heartbeat are such timers.
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openAccountDb, type AccountDb } from '../db/account-db.ts';
import { HEARTBEAT_MS, workClaimsOf } from '../db/work-claims.ts';
import type { NotificationRequest } from '../host/notifier.ts';
import { DEFAULT_FINISH_NOTIFIER, FinishNotifier } from './finish-notifier.ts';
import { createManualTime } from './test-support/manual-time.ts';

let cache: AccountDb;
let full = false;
let restore = (): void => {};

beforeEach(() => {
  cache = openAccountDb(':memory:');
  full = false;
  const proto = Object.getPrototypeOf(cache.sqlite.prepare('SELECT 1')) as { run: (...a: unknown[]) => unknown };
  const realRun = proto.run;
  proto.run = function (this: unknown, ...args: unknown[]) {
    if (full) throw new Database.SqliteError('database or disk is full', 'SQLITE_FULL');
    return realRun.apply(this, args);
  };
  restore = () => (proto.run = realRun);
});
afterEach(() => {
  full = false;
  restore();
  vi.useRealTimers();
  cache.close();
});

describe('timers on a full disk', () => {
  it('the finish notifier keeps its finishes when they cannot be marked, and announces them once space is back', () => {
    let now = Date.parse('2026-04-01T12:00:00Z');
    const time = createManualTime(() => now);
    const store = cache.jobs;
    const shown: NotificationRequest[] = [];
    const errors: unknown[] = [];
    const notifier = new FinishNotifier({
      store,
      notifier: { notify: (n) => void shown.push(n) },
      time,
      options: DEFAULT_FINISH_NOTIFIER,
      onError: (error) => errors.push(error),
    });
    const row = store.insert({ kind: 'image', modelId: 'imagea', request: { modelID: 'imagea', prompt: 'p' }, now });
    store.update(row.local_id, { jobId: 'j1', state: 'succeeded', finishedAt: now }, now);
    notifier.add(row.local_id);
    full = true;
    now += DEFAULT_FINISH_NOTIFIER.windowMs;
    expect(() => time.fireDue()).not.toThrow();
    expect(shown).toHaveLength(0);
    expect(errors).toHaveLength(1);
    full = false;
    notifier.flush();
    expect(shown.map((n) => n.title)).toEqual(['Image ready']);
  });

  it('the work-claims heartbeat skips a beat instead of throwing from its interval', () => {
    vi.useFakeTimers();
    const claims = workClaimsOf(cache.sqlite);
    full = true;
    expect(() => vi.advanceTimersByTime(HEARTBEAT_MS * 2)).not.toThrow();
    full = false;
    claims.retire();
  });
});

describe('opening on a full disk', () => {
  it('the work-claims registry opens even when its first beat cannot be written', () => {
    full = true;
    expect(() => workClaimsOf(cache.sqlite)).not.toThrow();
    full = false;
    workClaimsOf(cache.sqlite).retire();
  });
});

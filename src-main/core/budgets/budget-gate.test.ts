// The budget policy on a real account database: spent today and this month in local days (a fixed
// time zone with a daylight-saving change), reported credits plus the estimates of jobs not charged
// yet, caps off by default, and the words of a refusal.
process.env['TZ'] = 'Europe/Berlin';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NO_CAPS, type CreditCapsInfo } from '../../contract/ipc/budget.ts';
import { openAccountDb, type AccountDb } from '../db/account-db.ts';
import type { JobKind, JobState } from '../db/repos/jobs-repo.ts';
import { BudgetGate } from './budget-gate.ts';
import { dayKey, lastDays, startOfDay, startOfMonth } from './local-calendar.ts';

/** Local wall-clock time in Berlin. */
const at = (y: number, m: number, d: number, h = 12, min = 0) => new Date(y, m - 1, d, h, min).getTime();

describe('the budget policy', () => {
  let cache: AccountDb;
  let now: number;
  let caps: CreditCapsInfo;
  let gate: BudgetGate;

  const job = (
    when: number,
    state: JobState,
    credits: number | null,
    body: Record<string, unknown> = { modelID: 'imagea', prompt: 'p' },
    kind: JobKind = 'image',
  ) => {
    const row = cache.jobs.insert({ kind, modelId: (body['modelID'] as string) ?? null, request: body, now: when });
    cache.jobs.update(
      row.local_id,
      { state, credits, ...(state === 'succeeded' || state === 'failed' ? { finishedAt: when + 1_000 } : {}) },
      when,
    );
    return row.local_id;
  };

  beforeEach(() => {
    cache = openAccountDb(':memory:');
    now = at(2026, 3, 29, 15);
    caps = NO_CAPS;
    gate = new BudgetGate({ jobs: cache.jobs, caps: () => caps, now: () => now });
  });
  afterEach(() => cache.close());

  it('runs in the time zone it was given (the boundaries below depend on it)', () => {
    // 29 March 2026 is the day Berlin moves its clocks forward: 23 hours long.
    expect(startOfDay(at(2026, 3, 30, 0, 30)) - startOfDay(at(2026, 3, 29, 12))).toBe(23 * 3_600_000);
    expect(new Date(startOfDay(now)).toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect(dayKey(at(2026, 3, 29, 0, 0))).toBe('2026-03-29');
    expect(new Date(startOfMonth(now)).toISOString()).toBe('2026-02-28T23:00:00.000Z');
    const days = lastDays(now, 30);
    expect(days).toHaveLength(30);
    expect(days[0]?.date).toBe('2026-02-28');
    expect(days[29]?.date).toBe('2026-03-29');
  });

  it('counts today from local midnight and the month from its first day', () => {
    job(at(2026, 3, 28, 23, 59), 'succeeded', 5); // yesterday, late
    job(at(2026, 3, 29, 0, 0), 'succeeded', 7); // today, first minute
    job(at(2026, 3, 1, 0, 1), 'succeeded', 11); // this month's first day
    job(at(2026, 2, 28, 23, 59), 'succeeded', 100); // last month
    const status = gate.status();
    expect(status).toMatchObject({ spentToday: 7, spentThisMonth: 23, estimatedToday: 0, estimatedThisMonth: 0 });
    // Past midnight the day starts again; past the month's end the month does.
    now = at(2026, 3, 30, 0, 5);
    expect(gate.status()).toMatchObject({ spentToday: 0, spentThisMonth: 23 });
    now = at(2026, 4, 1, 0, 5);
    expect(gate.status()).toMatchObject({ spentToday: 0, spentThisMonth: 0 });
  });

  it('counts the estimates of jobs on their way (and finished without a reported cost), not failed ones', () => {
    const body = { modelID: 'imagea', prompt: 'a', numImages: 2 };
    job(at(2026, 3, 20), 'succeeded', 4, body);
    job(at(2026, 3, 21), 'succeeded', 6, { ...body, prompt: 'b' });
    job(at(2026, 3, 29, 9), 'queued', null, { ...body, prompt: 'queued' });
    job(at(2026, 3, 29, 10), 'submitting', null, { ...body, prompt: 'sending' });
    job(at(2026, 3, 29, 11), 'running', null, { ...body, prompt: 'running' });
    job(at(2026, 3, 29, 12), 'succeeded', null, { ...body, prompt: 'cost not reported yet' });
    job(at(2026, 3, 29, 13), 'failed', null, { ...body, prompt: 'failed, not charged' });
    job(at(2026, 3, 29, 14), 'unknown', null, { ...body, prompt: 'may never have arrived' });
    // A model with no history yet: its jobs are estimated at nothing (the cap still holds once used up).
    job(at(2026, 3, 29, 14), 'queued', null, { modelID: 'imageb', prompt: 'new model' });
    expect(gate.status()).toMatchObject({
      spentToday: 20,
      estimatedToday: 20,
      spentThisMonth: 30,
      estimatedThisMonth: 20,
    });
    expect(gate.estimate('image', { ...body, prompt: 'next' })).toBe(5);
    expect(gate.estimate('image', { modelID: 'imageb', prompt: 'next' })).toBe(0);
  });

  it('lets everything through with the caps off (the default)', () => {
    job(at(2026, 3, 29, 9), 'succeeded', 100_000);
    expect(gate.status()).toMatchObject({ caps: { daily: null, monthly: null }, remainingToday: null });
    expect(gate.check(1_000_000)).toEqual({ ok: true });
  });

  it('refuses what would pass a cap, in words with the numbers; up to the cap is fine', () => {
    job(at(2026, 3, 29, 9), 'succeeded', 190);
    job(at(2026, 3, 2), 'succeeded', 1_700);
    caps = { daily: 200, monthly: null };
    expect(gate.status()).toMatchObject({ remainingToday: 10, remainingThisMonth: null });
    expect(gate.check(10)).toEqual({ ok: true });
    expect(gate.check(24)).toEqual({
      ok: false,
      reason: 'This needs about 24 credits; 190 of your 200 daily credits are used.',
    });
    caps = { daily: null, monthly: 1_900 };
    expect(gate.check(24)).toEqual({
      ok: false,
      reason: 'This needs about 24 credits; 1,890 of your 1,900 monthly credits are used.',
    });
    // Both passed: the daily cap is named.
    caps = { daily: 200, monthly: 1_900 };
    expect(gate.check(24)).toMatchObject({ ok: false, reason: expect.stringContaining('daily') });
  });

  it('refuses a request of unknown cost once a cap is used up, and counts queued estimates against it', () => {
    const body = { modelID: 'imagea', prompt: 'a' };
    job(at(2026, 3, 29, 8), 'succeeded', 3, body);
    caps = { daily: 6, monthly: null };
    expect(gate.check(0)).toEqual({ ok: true });
    job(at(2026, 3, 29, 9), 'queued', null, { ...body, prompt: 'b' });
    expect(gate.status().spentToday).toBe(6);
    expect(gate.check(0)).toEqual({
      ok: false,
      reason: 'Your daily cap of 6 credits is used up: 6 credits today.',
    });
    expect(gate.check(2.5)).toEqual({
      ok: false,
      reason: 'Your daily cap of 6 credits is used up: 6 credits today, and this needs about 2.5 credits.',
    });
  });
});

// The Spending view's figures on a real account database: the last 30 local days, by model, the
// month's total; only credits the service reported (estimates and failed jobs left out).
process.env['TZ'] = 'America/New_York';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openAccountDb, type AccountDb } from '../db/account-db.ts';
import type { JobState } from '../db/repos/jobs-repo.ts';
import { spendingReport } from './spending-report.ts';

const at = (y: number, m: number, d: number, h = 12, min = 0) => new Date(y, m - 1, d, h, min).getTime();

describe('the Spending view’s figures', () => {
  let cache: AccountDb;
  const job = (when: number, state: JobState, credits: number | null, modelID = 'imagea') => {
    const row = cache.jobs.insert({ kind: 'image', modelId: modelID, request: { modelID, prompt: 'p' }, now: when });
    cache.jobs.update(row.local_id, { state, credits }, when);
  };
  beforeEach(() => {
    cache = openAccountDb(':memory:');
  });
  afterEach(() => cache.close());

  it('adds up reported credits by local day and by model; the month apart from the 30 days', () => {
    const now = at(2026, 11, 3, 9);
    job(at(2026, 11, 3, 0, 1), 'succeeded', 2, 'imagea-2');
    job(at(2026, 11, 2, 23, 59), 'succeeded', 5, 'videod-1.5');
    job(at(2026, 11, 1, 1), 'succeeded', 1);
    job(at(2026, 10, 5, 12), 'succeeded', 3); // the 30th day back
    job(at(2026, 10, 4, 12), 'succeeded', 100); // outside the 30 days
    job(at(2026, 11, 3, 2), 'queued', null); // not charged yet: not a figure here
    job(at(2026, 11, 3, 3), 'succeeded', null); // cost not reported yet: counted apart
    job(at(2026, 11, 3, 4), 'failed', 0);
    const report = spendingReport(cache.jobs, { daily: 10, monthly: null }, now);
    expect(report.days).toHaveLength(30);
    expect(report.days[0]).toEqual({ date: '2026-10-05', credits: 3, jobs: 1 });
    expect(report.days.slice(-3)).toEqual([
      { date: '2026-11-01', credits: 1, jobs: 1 },
      { date: '2026-11-02', credits: 5, jobs: 1 },
      { date: '2026-11-03', credits: 2, jobs: 2 },
    ]);
    expect(report.models).toEqual([
      { modelId: 'videod-1.5', credits: 5, jobs: 1 },
      { modelId: 'imagea', credits: 4, jobs: 3 },
      { modelId: 'imagea-2', credits: 2, jobs: 1 },
    ]);
    expect(report).toMatchObject({ monthTotal: 8, uncosted: 1, caps: { daily: 10, monthly: null } });
  });

  it('is empty, with 30 days of nothing, before any credits', () => {
    const report = spendingReport(cache.jobs, { daily: null, monthly: null }, at(2026, 3, 8));
    expect(report.days.every((d) => d.credits === 0)).toBe(true);
    expect(report).toMatchObject({ models: [], monthTotal: 0, uncosted: 0 });
  });
});

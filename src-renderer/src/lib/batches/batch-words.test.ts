// The words of a batch plan and of a running batch, from plans the contract's planner makes.
import { describe, expect, it } from 'vitest';
import type { BatchInfo, BatchPlanInfo } from '@contract/ipc/batches.ts';
import { planBatch } from '@contract/batch/batch-plan.ts';
import { readPromptList } from '@contract/batch/batch-source.ts';
import { expansionText, planHeadline, progressText, refusedText, restOf, sendLabel, stateText } from './batch-words.ts';

/** A plan as batches:plan gives it, each job estimated at `each` credits (null: no history). */
function planOf(text: string, each: number | null): BatchPlanInfo {
  const plan = planBatch(readPromptList(text), { model: 'imagea' });
  const estimate = { credits: each, low: each, high: each, basedOn: each === null ? 0 : 3 };
  return {
    jobs: plan.jobs.map((job) => ({ ...job, estimate })),
    refused: plan.refused.map((r) => ({ ...r, fields: [] })),
    totalCredits: each === null ? 0 : each * plan.jobs.length,
    unknownEstimates: each === null ? plan.jobs.length : 0,
  };
}

describe('plan words', () => {
  it('counts the jobs, the lines they came from and the credits', () => {
    const plan = planOf('a cat\na dog\n\na bird', 4);
    expect(planHeadline(plan, 'prompts')).toBe('3 jobs from 3 lines · about 12 credits');
    expect(expansionText(plan, 'prompts')).toBeNull();
    expect(sendLabel(plan.jobs.length)).toBe('Send 3 jobs');
    expect(sendLabel(1)).toBe('Send 1 job');
  });

  it('{a|b} wildcards: the lines and what they expand to', () => {
    const plan = planOf('a {red|green|blue} car\na {big|small} house\na tree', 2);
    expect(plan.jobs).toHaveLength(6);
    expect(planHeadline(plan, 'prompts')).toBe('6 jobs from 3 lines · about 12 credits');
    expect(expansionText(plan, 'prompts')).toBe('3 lines → 6 jobs');
  });

  it('says when the cost is not known', () => {
    expect(planHeadline(planOf('a cat', null), 'csv')).toBe(
      '1 job from 1 row · cost not known yet (no jobs like these in your history)',
    );
  });

  it('a refused row in the rules’ own words, with a capital', () => {
    const plan = planOf('a cat\n{unclosed', 1);
    expect(plan.refused).toHaveLength(1);
    expect(refusedText(plan.refused[0]!.message)).toMatch(/^Row 2: /);
    expect(planHeadline(plan, 'prompts')).toBe('1 job from 2 lines · about 1 credit');
  });
});

describe('batch progress words', () => {
  const batch = (over: Partial<BatchInfo>): BatchInfo => ({
    id: 1,
    name: 'robots',
    state: 'running',
    pausedReason: null,
    stoppedAtCap: false,
    createdAt: 0,
    items: { pending: 6, sent: 12, refused: 2, cancelled: 0, paused: 0 },
    jobs: { succeeded: 5, running: 4, queued: 3 },
    ...over,
  });

  it('"12 of 18 sent · 5 done · 2 refused"', () => {
    expect(progressText(batch({}))).toBe('12 of 18 sent · 5 done · 2 refused');
    expect(restOf(batch({}))).toBe(6);
    expect(stateText(batch({}))).toBe('Sending');
  });

  it('a paused batch says why; cancelled and failed jobs are counted', () => {
    const paused = batch({
      state: 'paused',
      pausedReason: 'Paused by you.',
      items: { pending: 0, sent: 12, refused: 0, cancelled: 0, paused: 6 },
    });
    expect(stateText(paused)).toBe('Paused');
    expect(stateText({ ...paused, pausedReason: 'Stopped at your credit cap. …', stoppedAtCap: true })).toBe(
      'Stopped at your cap',
    );
    expect(restOf(paused)).toBe(6);
    const cancelled = batch({
      state: 'cancelled',
      items: { pending: 0, sent: 12, refused: 0, cancelled: 6, paused: 0 },
      jobs: { succeeded: 10, failed: 2 },
    });
    expect(progressText(cancelled)).toBe('12 of 18 sent · 10 done · 2 failed · 6 cancelled');
  });
});

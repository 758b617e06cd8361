import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decideSubmissions,
  requestedCountOf,
  type Candidate,
  type Decision,
  type PendingRow,
} from './reconcile-match.ts';

const W = { beforeMs: 120_000, afterMs: 180_000 };
const T = Date.parse('2026-03-01T10:00:00Z');
const row = (localId: number, at: number, kind: PendingRow['kind'] = 'image', more: Partial<PendingRow> = {}) => ({
  localId,
  kind,
  createdAt: T + at,
  ...more,
});
const cand = (jobId: string, at: number, kind: Candidate['kind'] = null, outputCount: number | null = null) => ({
  jobId,
  createdAt: T + at,
  kind,
  outputCount,
});
const adopt = (jobId: string): Decision => ({ type: 'adopt', jobId });

describe('decideSubmissions', () => {
  it('adopts the one job created right after the row was written', () => {
    expect(decideSubmissions([row(1, 0)], [cand('j1', 800)], W)).toEqual(new Map([[1, adopt('j1')]]));
  });

  it('tolerates a service clock a little behind ours', () => {
    expect(decideSubmissions([row(1, 0)], [cand('j1', -90_000)], W)).toEqual(new Map([[1, adopt('j1')]]));
  });

  it('says nothing arrived when no job was created in the window', () => {
    expect(decideSubmissions([row(1, 0)], [cand('j1', -10 * 60_000), cand('j2', 10 * 60_000)], W)).toEqual(
      new Map([[1, { type: 'nothing' }]]),
    );
  });

  it('never pairs by order: rows and jobs of the same count in the same window stay unattributed', () => {
    const rows = [row(1, 0), row(2, 1_000), row(3, 2_000)];
    const cands = [cand('c', 2_300), cand('a', 400), cand('b', 1_200)];
    const decisions = decideSubmissions(rows, cands, W);
    for (const id of [1, 2, 3]) expect(decisions.get(id)).toEqual({ type: 'ambiguous', jobIds: ['c', 'a', 'b'] });
  });

  it('refuses to guess when two jobs could be the one row (another device submitted too)', () => {
    expect(decideSubmissions([row(1, 0)], [cand('a', 500), cand('b', 900)], W).get(1)).toEqual({
      type: 'ambiguous',
      jobIds: ['a', 'b'],
    });
  });

  it('uses the kind to tell them apart when the records show it', () => {
    expect(decideSubmissions([row(1, 0, 'video')], [cand('a', 500, 'image'), cand('b', 900, 'video')], W)).toEqual(
      new Map([[1, adopt('b')]]),
    );
  });

  it('ties by kind when each row has exactly one job its kind allows', () => {
    const rows = [row(1, 0, 'video'), row(2, 1_000, 'image')];
    const cands = [cand('a', 100, 'image'), cand('b', 1_100, 'video')];
    expect(decideSubmissions(rows, cands, W)).toEqual(
      new Map([
        [1, adopt('b')],
        [2, adopt('a')],
      ]),
    );
  });

  it('ties by count: a job with four images cannot be a one-image request’s', () => {
    const rows = [row(1, 0, 'image', { requestedCount: 1 }), row(2, 500, 'image', { requestedCount: 4 })];
    const decisions = decideSubmissions(rows, [cand('four', 600, 'image', 4)], W);
    expect(decisions.get(1)).toEqual({ type: 'nothing' });
    expect(decisions.get(2)).toEqual(adopt('four'));
    // A four-image request may have made one image (a partial result): fewer outputs decide nothing.
    const partial = decideSubmissions(rows, [cand('one', 700, 'image', 1)], W);
    expect(partial.get(1)).toEqual({ type: 'ambiguous', jobIds: ['one'] });
    expect(partial.get(2)).toEqual({ type: 'ambiguous', jobIds: ['one'] });
  });

  it('counts rows it does not decide as possible senders (mid-POST, still in their window)', () => {
    const rows = [row(1, 0), row(2, 200, 'image', { decidable: false })];
    const decisions = decideSubmissions(rows, [cand('a', 700)], W);
    expect(decisions.get(1)).toEqual({ type: 'ambiguous', jobIds: ['a'] });
    expect(decisions.has(2)).toBe(false);
  });

  it('never takes a job that finished without images or videos (a training) for a generation', () => {
    expect(decideSubmissions([row(1, 0)], [cand('t', 500, 'other')], W).get(1)).toEqual({ type: 'nothing' });
  });

  it('handles separate clusters independently', () => {
    const rows = [row(1, 0), row(2, 60 * 60_000)];
    const cands = [cand('a', 300), cand('b', 60 * 60_000 + 300), cand('x', 60 * 60_000 + 600)];
    const decisions = decideSubmissions(rows, cands, W);
    expect(decisions.get(1)).toEqual(adopt('a'));
    expect(decisions.get(2)).toEqual({ type: 'ambiguous', jobIds: ['b', 'x'] });
  });

  it('reads the requested count from the request only when it says', () => {
    expect(requestedCountOf('image', { numImages: 3 })).toBe(3);
    expect(requestedCountOf('image', {})).toBeNull();
    expect(requestedCountOf('video', { numVideos: 2 })).toBe(2);
    expect(requestedCountOf('upscale', {})).toBe(1);
  });
});

// ---- Random interleavings of sends, lost answers, kills and restarts ----------------------------

/** What happens to one POST. */
type Fate = 'answered' | 'answer-lost' | 'never-arrived';
interface Send {
  kind: 'image' | 'video' | 'upscale';
  count: number;
  /** ms after the previous send. */
  gap: number;
  /** ms from the POST to the job's creation on the service. */
  latency: number;
  /** ms from the creation to the answer reaching the app. */
  answerDelay: number;
  fate: Fate;
  /** Outputs the job made (≤ count: a partial result is possible). */
  made: number;
  finishedBy: number;
}

const POST_TIMEOUT = 60_000;
const sendArb: fc.Arbitrary<Send> = fc
  .record({
    kind: fc.constantFrom('image' as const, 'video' as const, 'upscale' as const),
    count: fc.integer({ min: 1, max: 4 }),
    gap: fc.integer({ min: 0, max: 8_000 }),
    latency: fc.integer({ min: 0, max: 20_000 }),
    answerDelay: fc.integer({ min: 0, max: 5_000 }),
    fate: fc.constantFrom<Fate>('answered', 'answer-lost', 'answer-lost', 'never-arrived'),
    partial: fc.integer({ min: 0, max: 3 }),
    finishedBy: fc.integer({ min: 0, max: 60_000 }),
  })
  .map(({ partial, ...s }) => ({
    ...s,
    count: s.kind === 'upscale' ? 1 : s.count,
    made: Math.max(1, (s.kind === 'upscale' ? 1 : s.count) - partial),
  }));

const scenarioArb = fc.record({
  sends: fc.array(sendArb, { minLength: 1, maxLength: 12 }),
  /** The app is killed this long after the first send (answers not in yet are lost), or never. */
  killAt: fc.option(fc.integer({ min: 0, max: 80_000 }), { nil: null }),
  /** Reconciliation passes (restarts and lost-answer checks), ms after the first send. */
  passes: fc.array(fc.integer({ min: 0, max: 900_000 }), { minLength: 1, maxLength: 6 }),
  /** What happens to the requests sent again (in order) when a pass found nothing of them. */
  resends: fc.array(sendArb, { maxLength: 6 }),
});

interface SimRow {
  localId: number;
  kind: Send['kind'];
  count: number;
  sentAt: number;
  /** The job this row really created, if any (ground truth the matcher never sees). */
  truth: string | null;
  /** When the POST ends in the app: the answer, or its failure. */
  endsAt: number;
  answered: boolean;
  /** What reconciliation concluded. */
  jobId: string | null;
  state: 'posting' | 'pending' | 'own' | 'maybe';
}
interface SimJob {
  jobId: string;
  createdAt: number;
  kind: 'image' | 'video';
  made: number;
  finishedAt: number;
  claimed: boolean;
  unattributed: boolean;
}

function simulate(scenario: Scenario) {
  const rows: SimRow[] = [];
  const jobs: SimJob[] = [];
  let t = T;
  scenario.sends.forEach((send, i) => {
    t += send.gap;
    const jobId = `job-${i}`;
    const created = send.fate !== 'never-arrived';
    if (created)
      jobs.push({
        jobId,
        createdAt: t + send.latency,
        kind: send.kind === 'video' ? 'video' : 'image',
        made: send.made,
        finishedAt: t + send.latency + send.finishedBy,
        claimed: false,
        unattributed: false,
      });
    const killed = scenario.killAt !== null && T + scenario.killAt < t + send.latency + send.answerDelay;
    const answered = send.fate === 'answered' && !killed;
    rows.push({
      localId: i + 1,
      kind: send.kind,
      count: send.count,
      sentAt: t,
      truth: created ? jobId : null,
      endsAt: answered ? t + send.latency + send.answerDelay : t + POST_TIMEOUT,
      answered,
      jobId: null,
      state: 'posting',
    });
  });
  const violations: string[] = [];
  const resends = [...(scenario.resends ?? [])];
  for (const at of [...scenario.passes].sort((a, b) => a - b).map((ms) => T + ms)) {
    for (const r of rows) {
      if (r.state !== 'posting' || r.endsAt > at) continue;
      if (r.answered) {
        r.state = 'own';
        r.jobId = r.truth;
        const job = jobs.find((j) => j.jobId === r.truth)!;
        job.claimed = true;
        job.unattributed = false;
      } else r.state = 'pending';
    }
    // The listing: jobs created by now that no row follows.
    const listed = jobs.filter((j) => j.createdAt <= at && !j.claimed);
    const candidates: Candidate[] = listed.map((j) => ({
      jobId: j.jobId,
      createdAt: j.createdAt,
      kind: j.finishedAt <= at ? j.kind : null,
      outputCount: j.finishedAt <= at ? j.made : null,
    }));
    const senders: PendingRow[] = rows
      .filter((r) => r.sentAt <= at && (r.state === 'posting' || r.state === 'pending' || r.state === 'maybe'))
      .map((r) => ({
        localId: r.localId,
        kind: r.kind,
        createdAt: r.sentAt,
        requestedCount: r.count,
        decidable: r.state === 'pending' && at >= r.sentAt + W.afterMs,
      }));
    const decisions = decideSubmissions(senders, candidates, W);
    for (const [localId, decision] of decisions) {
      const r = rows.find((x) => x.localId === localId)!;
      const unattributed = new Set(jobs.filter((j) => j.unattributed).map((j) => j.jobId));
      if (decision.type === 'adopt' && !unattributed.has(decision.jobId)) {
        if (decision.jobId !== r.truth) violations.push(`row ${localId} got ${decision.jobId}, made ${r.truth}`);
        r.state = 'own';
        r.jobId = decision.jobId;
        jobs.find((j) => j.jobId === decision.jobId)!.claimed = true;
      } else if (decision.type === 'nothing') {
        if (r.truth !== null) violations.push(`row ${localId} would be sent again, but it made ${r.truth}`);
        // Sent again as the same row, now: a new window, a new fate.
        const again = resends.shift() ?? { latency: 500, answerDelay: 100, fate: 'answered' as Fate, made: 1 };
        const jobId = `job-${localId}-again-${at}`;
        r.sentAt = at;
        r.truth = again.fate === 'never-arrived' ? null : jobId;
        r.answered = again.fate === 'answered';
        r.endsAt = r.answered ? at + again.latency + again.answerDelay : at + POST_TIMEOUT;
        r.state = 'posting';
        if (r.truth !== null)
          jobs.push({
            jobId,
            createdAt: at + again.latency,
            kind: r.kind === 'video' ? 'video' : 'image',
            made: Math.min(r.count, again.made),
            finishedAt: at + again.latency + 1_000,
            claimed: false,
            unattributed: false,
          });
      } else {
        r.state = 'maybe';
        const ids = decision.type === 'adopt' ? [decision.jobId] : decision.jobIds;
        for (const id of ids) jobs.find((j) => j.jobId === id)!.unattributed = true;
      }
    }
  }
  return violations;
}
type Scenario = { sends: Send[]; killAt: number | null; passes: number[]; resends?: Send[] };

describe('decideSubmissions over random interleavings of sends, lost answers, kills and restarts', () => {
  it('never gives a row a job it did not create, and never calls a row unsent when its job exists (resends included)', () => {
    fc.assert(
      fc.property(scenarioArb, (scenario) => {
        expect(simulate(scenario)).toEqual([]);
      }),
      { numRuns: 400, seed: 28 },
    );
  });

  it('sees the swap the time-order pairing made: two lost answers, jobs created in the other order', () => {
    const base = { count: 1, answerDelay: 100, made: 1, finishedBy: 1_000 };
    const scenario: Scenario = {
      sends: [
        { ...base, kind: 'image', gap: 0, latency: 3_000, fate: 'answer-lost' },
        { ...base, kind: 'image', gap: 500, latency: 100, fate: 'answer-lost' },
      ],
      killAt: null,
      passes: [400_000],
    };
    expect(simulate(scenario)).toEqual([]);
  });
});

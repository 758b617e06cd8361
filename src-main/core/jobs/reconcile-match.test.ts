import { describe, expect, it } from 'vitest';
import { matchSubmissions, type Candidate, type PendingRow } from './reconcile-match.ts';

const W = { beforeMs: 120_000, afterMs: 180_000 };
const T = Date.parse('2026-03-01T10:00:00Z');
const row = (localId: number, at: number, kind: PendingRow['kind'] = 'image'): PendingRow => ({
  localId,
  kind,
  createdAt: T + at,
});
const cand = (jobId: string, at: number, kind: Candidate['kind'] = null): Candidate => ({
  jobId,
  createdAt: T + at,
  kind,
});

describe('matchSubmissions', () => {
  it('adopts the one job created right after the row was written', () => {
    expect(matchSubmissions([row(1, 0)], [cand('j1', 800)], W)).toEqual(new Map([[1, 'j1']]));
  });

  it('tolerates a service clock a little behind ours', () => {
    expect(matchSubmissions([row(1, 0)], [cand('j1', -90_000)], W)).toEqual(new Map([[1, 'j1']]));
  });

  it('adopts nothing when no job was created in the window', () => {
    expect(matchSubmissions([row(1, 0)], [cand('j1', -10 * 60_000), cand('j2', 10 * 60_000)], W).size).toBe(0);
  });

  it('pairs several rows with as many jobs in submission order', () => {
    const rows = [row(1, 0), row(2, 1_000), row(3, 2_000)];
    const cands = [cand('c', 2_300), cand('a', 400), cand('b', 1_200)];
    expect(matchSubmissions(rows, cands, W)).toEqual(
      new Map([
        [1, 'a'],
        [2, 'b'],
        [3, 'c'],
      ]),
    );
  });

  it('refuses to guess when two jobs could be the one row (another device submitted too)', () => {
    expect(matchSubmissions([row(1, 0)], [cand('a', 500), cand('b', 900)], W).size).toBe(0);
  });

  it('uses the kind to tell them apart when the records show it', () => {
    expect(matchSubmissions([row(1, 0, 'video')], [cand('a', 500, 'image'), cand('b', 900, 'video')], W)).toEqual(
      new Map([[1, 'b']]),
    );
  });

  it('refuses to guess when fewer jobs than rows landed', () => {
    expect(matchSubmissions([row(1, 0), row(2, 500)], [cand('a', 700)], W).size).toBe(0);
  });

  it('never takes a job that finished without images or videos (a training) for a generation', () => {
    expect(matchSubmissions([row(1, 0)], [cand('t', 500, 'other')], W).size).toBe(0);
  });

  it('never pairs across kinds in the ordered pairing', () => {
    const rows = [row(1, 0, 'video'), row(2, 1_000, 'image')];
    const cands = [cand('a', 100, 'image'), cand('b', 1_100, 'video')];
    // Order says 1→a, 2→b, but kinds disagree; each row has exactly one compatible job.
    expect(matchSubmissions(rows, cands, W)).toEqual(
      new Map([
        [1, 'b'],
        [2, 'a'],
      ]),
    );
  });

  it('handles separate clusters independently', () => {
    const rows = [row(1, 0), row(2, 60 * 60_000)];
    const cands = [cand('a', 300), cand('b', 60 * 60_000 + 300), cand('x', 60 * 60_000 + 600)];
    expect(matchSubmissions(rows, cands, W)).toEqual(new Map([[1, 'a']]));
  });
});

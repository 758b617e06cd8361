// What an outcome does to a download row, and the download backoff (the one background backoff).
import { describe, expect, it } from 'vitest';
import type { DownloadRow } from '../../db/repos/downloads-repo.ts';
import { BACKGROUND_BACKOFF } from '../../api/backoff.ts';
import { applyOutcome, MAX_ATTEMPTS, retryDelayOf } from './download-retries.ts';

const row = (patch: Partial<DownloadRow> = {}): DownloadRow => ({
  id: 1,
  asset_seq: 1,
  asset_kind: 'image',
  asset_id: 'a',
  url: 'http://x/a',
  dest: 'images/a.png',
  state: 'downloading',
  prepare_percent: null,
  bytes_done: 0,
  bytes_total: null,
  etag: null,
  last_modified: null,
  attempts: 0,
  next_attempt_at: null,
  error: null,
  created_at: 1,
  updated_at: 1,
  mode: 'file',
  content_type: null,
  error_code: null,
  ...patch,
});

const ctx = { now: 1_000, reason: null, backoff: (_info: unknown, attempts: number) => attempts * 100 };
const retry = (progressed: boolean, immediately = false) =>
  ({ kind: 'retry', info: { code: 'network', message: 'cut' }, progressed, immediately }) as const;

describe('applyOutcome', () => {
  it('schedules a retry with the backoff and counts the attempts', () => {
    const r = row({ attempts: 2 });
    expect(applyOutcome(r, retry(false), ctx)).toEqual({ kind: 'save-and-mirror' });
    expect([r.state, r.attempts, r.next_attempt_at, r.error]).toEqual(['queued', 3, 1_300, 'cut']);
  });

  it('starts counting again when bytes arrived', () => {
    const r = row({ attempts: 5 });
    applyOutcome(r, retry(true), ctx);
    expect(r.attempts).toBe(1);
  });

  it('gives up after MAX_ATTEMPTS tries', () => {
    const r = row({ attempts: MAX_ATTEMPTS - 1 });
    applyOutcome(r, retry(false), ctx);
    expect(r.state).toBe('failed');
    expect(r.error).toMatch(/gave up after 8 tries/);
    expect(r.next_attempt_at).toBeNull();
  });

  it('asks for a fresh link at once after a dead one, then backs off', () => {
    const first = row({ attempts: 0 });
    applyOutcome(first, retry(false, true), ctx);
    expect([first.url, first.next_attempt_at]).toEqual([null, 1_000]);
    const third = row({ attempts: 2 });
    applyOutcome(third, retry(false, true), ctx);
    expect(third.next_attempt_at).toBe(1_300);
  });

  it('pauses an item stopped by its own pause and re-queues one stopped by the queue', () => {
    const mine = row();
    applyOutcome(mine, { kind: 'aborted' }, { ...ctx, reason: 'pause-item' });
    const queue = row();
    applyOutcome(queue, { kind: 'aborted' }, { ...ctx, reason: 'pause-queue' });
    expect([mine.state, queue.state]).toEqual(['paused', 'queued']);
  });

  it('marks a full disk on the row and asks the queue to pause', () => {
    const r = row();
    expect(applyOutcome(r, { kind: 'disk_full' }, ctx)).toEqual({ kind: 'disk-full' });
    expect([r.state, r.error_code]).toEqual(['queued', 'disk_full']);
  });
});

describe('retryDelayOf', () => {
  const cut = { code: 'network', message: 'cut' } as const;
  it('draws anywhere up to the capped exponential step of the one background backoff', () => {
    expect(retryDelayOf(() => 0.999999)(cut, 1)).toBeLessThanOrEqual(BACKGROUND_BACKOFF.baseMs);
    expect(retryDelayOf(() => 0.5)(cut, 3)).toBe(BACKGROUND_BACKOFF.baseMs * 2);
    expect(retryDelayOf(() => 0.999999)(cut, 30)).toBeLessThanOrEqual(BACKGROUND_BACKOFF.capMs);
    expect(retryDelayOf(() => 0)(cut, 1)).toBeGreaterThan(0);
  });

  it("waits at least a media host's or the service's Retry-After", () => {
    const busy = { code: 'rate_limited', message: 'busy', retryAfterMs: 30_000 } as const;
    expect(retryDelayOf(() => 0)(busy, 1)).toBeGreaterThanOrEqual(30_000);
  });
});

// The poster queue of videos not downloaded yet: a few at a time, newest request first, a bounded
// wait list, and links that gave no poster remembered (refused for the session, unreachable for a
// while, with the whole queue pausing so an offline machine does not try every tile).
import { describe, expect, it } from 'vitest';
import { createRemotePosterQueue, type PosterJob, type PosterOutcome } from './remote-posters.ts';

interface Call {
  job: PosterJob;
  signal: AbortSignal;
  finish(outcome: PosterOutcome): void;
}

/** A queue whose posters finish when the test says so. */
function harness(options: { concurrency?: number; maxWaiting?: number } = {}) {
  let clock = 1_000;
  const calls: Call[] = [];
  let running = 0;
  let most = 0;
  const queue = createRemotePosterQueue({
    ...options,
    retryAfterMs: 60_000,
    pauseMs: 1_000,
    maxPauseMs: 4_000,
    now: () => clock,
    make: (job, signal) => {
      running += 1;
      most = Math.max(most, running);
      return new Promise<PosterOutcome>((resolve) => {
        calls.push({
          job,
          signal,
          finish: (outcome) => {
            running -= 1;
            resolve(outcome);
          },
        });
      });
    },
  });
  const tick = () => new Promise((r) => setTimeout(r, 0));
  return {
    queue,
    calls,
    most: () => most,
    tick,
    advance: (ms: number) => (clock += ms),
    /** Finishes the oldest running call. */
    async finish(outcome: PosterOutcome) {
      const call = calls.find((c) => !(c as Call & { done?: boolean }).done) as (Call & { done?: boolean }) | undefined;
      if (!call) throw new Error('nothing runs');
      call.done = true;
      call.finish(outcome);
      await tick();
      await tick();
    },
  };
}

const job = (n: number, url = `https://media.example/v${n}.mp4`): PosterJob => ({ id: `vid_${n}`, url });

describe('remote poster queue', () => {
  it('makes at most two at a time, the newest request first', async () => {
    const h = harness();
    for (let n = 1; n <= 6; n += 1) h.queue.request(job(n));
    expect(h.calls.map((c) => c.job.id)).toEqual(['vid_1', 'vid_2']);
    expect(h.queue.waiting).toBe(4);
    await h.finish('made');
    // The tile asked for last is the one most likely on screen now.
    expect(h.calls.map((c) => c.job.id)).toEqual(['vid_1', 'vid_2', 'vid_6']);
    while (h.calls.some((c) => !(c as Call & { done?: boolean }).done)) await h.finish('made');
    expect(h.calls.map((c) => c.job.id).sort()).toEqual(['vid_1', 'vid_2', 'vid_3', 'vid_4', 'vid_5', 'vid_6']);
    expect(h.most()).toBe(2);
    await h.queue.idle();
  });

  it('takes one at a time when told, and asks once for a poster already on its way', async () => {
    const h = harness({ concurrency: 1 });
    expect(h.queue.request(job(1))).toBe('running');
    expect(h.queue.request(job(1))).toBe('running');
    expect(h.queue.request(job(2))).toBe('queued');
    expect(h.queue.request(job(2))).toBe('queued');
    expect(h.queue.waiting).toBe(1);
    await h.finish('made');
    await h.finish('made');
    expect(h.calls).toHaveLength(2);
    expect(h.most()).toBe(1);
  });

  it('drops the oldest waiting requests past its bound (tiles scrolled past long ago)', async () => {
    const h = harness({ concurrency: 1, maxWaiting: 3 });
    for (let n = 1; n <= 10; n += 1) h.queue.request(job(n));
    expect(h.queue.waiting).toBe(3);
    for (let i = 0; i < 4; i += 1) await h.finish('made');
    expect(h.calls.map((c) => c.job.id)).toEqual(['vid_1', 'vid_10', 'vid_9', 'vid_8']);
    // A dropped one is asked for again when its tile comes back.
    expect(h.queue.request(job(2))).toBe('running');
  });

  it('never asks again for a refused link or one with no frame; a new link is tried', async () => {
    const h = harness();
    h.queue.request(job(1));
    h.queue.request(job(2));
    await h.finish('refused');
    await h.finish('no-frame');
    h.advance(24 * 60 * 60_000);
    expect(h.queue.request(job(1))).toBe('missed');
    expect(h.queue.request(job(2))).toBe('missed');
    expect(h.calls).toHaveLength(2);
    // A sync that brings a fresh (signed) link: worth one more try.
    expect(h.queue.request(job(1, 'https://media.example/v1.mp4?fresh'))).toBe('running');
  });

  it('pauses after an unreachable link and tries that link again only after a while', async () => {
    const h = harness({ concurrency: 1 });
    h.queue.request(job(1));
    await h.finish('unreachable');
    // Offline: the next tiles wait for the pause instead of failing one by one.
    expect(h.queue.request(job(2))).toBe('queued');
    expect(h.queue.request(job(1))).toBe('missed');
    expect(h.calls).toHaveLength(1);
    h.advance(1_000);
    expect(h.queue.request(job(3))).toBe('running');
    expect(h.calls.map((c) => c.job.id)).toEqual(['vid_1', 'vid_3']);
    await h.finish('made');
    expect(h.calls.map((c) => c.job.id)).toEqual(['vid_1', 'vid_3', 'vid_2']);
    await h.finish('made');
    h.advance(60_000);
    expect(h.queue.request(job(1))).toBe('running');
  });

  it('resumes on its own when a pause ends', async () => {
    let clock = 0;
    const made: string[] = [];
    const queue = createRemotePosterQueue({
      concurrency: 1,
      pauseMs: 30,
      now: () => clock,
      make: async (j) => {
        made.push(j.id);
        return j.id === 'vid_1' ? 'unreachable' : 'made';
      },
    });
    queue.request(job(1));
    await new Promise((r) => setTimeout(r, 0));
    queue.request(job(2));
    expect(made).toEqual(['vid_1']);
    clock = 30;
    await queue.idle();
    expect(made).toEqual(['vid_1', 'vid_2']);
  });

  it('counts a poster that threw as a miss, says so, and carries on', async () => {
    const errors: unknown[] = [];
    const queue = createRemotePosterQueue({
      concurrency: 1,
      pauseMs: 0,
      make: async (j) => {
        if (j.id === 'vid_1') throw new Error('disk full');
        return 'made';
      },
      onError: (_job, error) => errors.push(error),
    });
    queue.request(job(1));
    queue.request(job(2));
    await queue.idle();
    expect(errors).toHaveLength(1);
    expect(queue.request(job(1))).toBe('missed');
  });

  it('stops: what runs is aborted, what waits is dropped, nothing starts after', async () => {
    const h = harness({ concurrency: 1 });
    h.queue.request(job(1));
    h.queue.request(job(2));
    const stopped = h.queue.stop();
    expect(h.calls[0]!.signal.aborted).toBe(true);
    await h.finish('skipped');
    await stopped;
    expect(h.calls).toHaveLength(1);
    expect(h.queue.request(job(3))).toBe('missed');
    expect(h.queue.waiting).toBe(0);
  });
});

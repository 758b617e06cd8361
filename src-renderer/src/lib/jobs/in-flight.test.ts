import { describe, expect, it } from 'vitest';
import type { JobInfo } from '@contract/ipc/jobs.ts';
import {
  inFlightLabel,
  inFlightReason,
  liveUpscaleOf,
  sendOnce,
  upscaledBefore,
  upscaleInFlight,
  upscaleKey,
} from './in-flight.ts';

let nextId = 1;
function job(fields: Partial<JobInfo>): JobInfo {
  const localId = nextId++;
  return {
    localId,
    jobId: null,
    kind: 'upscale',
    modelId: null,
    state: 'running',
    serviceStatus: null,
    error: null,
    request: {},
    prompt: null,
    sourceImageId: 'img_a',
    createdAt: localId * 1000,
    submittedAt: null,
    finishedAt: null,
    lastPolledAt: null,
    nextPollAt: null,
    outputs: [],
    credits: null,
    canResubmit: false,
    resubmittedAs: null,
    unattributed: false,
    mayBeFrom: [],
    possibleJobs: [],
    resendAt: null,
    canCancelResend: false,
    ...fields,
  };
}

describe('an upscale in flight', () => {
  it('is the newest live upscale of that image, whatever else the list holds', () => {
    const old = job({ state: 'succeeded' });
    const live = job({ state: 'queued', submittedAt: 5_000 });
    const other = job({ sourceImageId: 'img_b' });
    const generation = job({ kind: 'image', sourceImageId: null });
    const jobs = [old, live, other, generation];
    expect(liveUpscaleOf(jobs, 'img_a')).toBe(live);
    expect(upscaleInFlight(jobs, new Set(), 'img_a')).toEqual({ state: 'queued', since: 5_000, localId: live.localId });
    expect(liveUpscaleOf([old, generation], 'img_a')).toBeNull();
  });

  it('counts from the moment this window sends it, before the core has written the job', () => {
    const sending = new Set([upscaleKey('img_a')]);
    expect(upscaleInFlight([], sending, 'img_a')).toEqual({ state: 'sending', since: null, localId: null });
    expect(upscaleInFlight([], sending, 'img_b')).toBeNull();
  });

  it('ends when the job ends: failed, unknown or done free the button again', () => {
    for (const state of ['succeeded', 'failed', 'unknown'] as const) {
      expect(upscaleInFlight([job({ state })], new Set(), 'img_a')).toBeNull();
    }
    expect(upscaledBefore([job({ state: 'succeeded' })], 'img_a')).toBe(true);
    expect(upscaledBefore([job({ state: 'failed' })], 'img_a')).toBe(false);
  });

  it('says what it is doing and for how long, and why it is not sent again', () => {
    const running = { state: 'running', since: 10_000, localId: 1 } as const;
    expect(inFlightLabel(running, 22_000)).toBe('Upscaling… 12s');
    expect(inFlightLabel(running, 10_000 + 185_000)).toBe('Upscaling… 3m 05s');
    expect(inFlightLabel({ state: 'queued', since: 10_000, localId: 1 }, 13_000)).toBe('Upscale queued 3s');
    expect(inFlightLabel({ state: 'sending', since: null, localId: null }, 0)).toBe('Sending upscale…');
    expect(inFlightReason(running)).toMatch(/not sent twice/);
  });
});

describe('sendOnce', () => {
  it('runs one send for two presses in the same moment, and a new one once the first has settled', async () => {
    const sending = new Set<string>();
    let sends = 0;
    let release: () => void = () => {};
    const send = () =>
      new Promise<string>((resolve) => {
        sends += 1;
        release = () => resolve(`job ${sends}`);
      });
    const first = sendOnce(sending, 'k', send);
    const second = sendOnce(sending, 'k', send);
    expect(await second).toEqual({ sent: false });
    expect(sends).toBe(1);
    release();
    expect(await first).toEqual({ sent: true, value: 'job 1' });
    expect(sending.has('k')).toBe(false);
    const again = sendOnce(sending, 'k', send);
    release();
    expect(await again).toEqual({ sent: true, value: 'job 2' });
  });

  it('lets go of the key when the send throws', async () => {
    const sending = new Set<string>();
    await expect(sendOnce(sending, 'k', () => Promise.reject(new Error('refused')))).rejects.toThrow('refused');
    expect(sending.has('k')).toBe(false);
    expect(await sendOnce(sending, 'other', () => Promise.resolve(1))).toEqual({ sent: true, value: 1 });
  });
});

// The engine end to end against the emulator: submit, poll, outputs, notifications, resubmit,
// validation before sending, history.
import { afterEach, describe, expect, it } from 'vitest';
import { closedPortUrl } from '../api/test-support/local-checks.ts';
import type { JobInfo } from '../../contract/ipc/jobs.ts';
import { createServiceClient } from '../api/service-client.ts';
import { silentLogger } from '../log/index.ts';
import { jobsServiceFromClient } from './service-port.ts';
import {
  imageBody,
  pollRequests,
  startEngineHarness,
  videoBody,
  type EngineHarness,
} from './test-support/engine-harness.ts';

let h: EngineHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const jobEvents = (harness: EngineHarness): JobInfo[] =>
  harness.recorded.filter((r) => r.event === 'jobs:changed').map((r) => r.payload as JobInfo);

describe('jobs engine', () => {
  it('follows a submitted image job to its outputs, saved as assets linked to the request', async () => {
    h = await startEngineHarness();
    h.engine.start();
    const submitted = await h.engine.submit({ kind: 'image', body: imageBody('a red fox in snow') });
    expect(submitted).toMatchObject({ state: 'queued', kind: 'image', modelId: 'imagea', prompt: 'a red fox in snow' });
    expect(submitted.jobId).toMatch(/\S/);
    // The first event is the row written before the POST.
    expect(jobEvents(h)[0]).toMatchObject({ state: 'submitting', jobId: null });

    for (let i = 0; i < 10 && h.engine.get(submitted.localId).state !== 'succeeded'; i += 1) await h.advance(5_000);
    const done = h.engine.get(submitted.localId);
    expect(done.state).toBe('succeeded');
    expect(done.outputs).toHaveLength(1);
    const asset = h.cache.assets.get('image', done.outputs[0]!.id)!;
    expect(asset).toMatchObject({
      job_id: submitted.jobId,
      prompt: 'a red fox in snow',
      model_id: 'imagea',
      origin: 'generated',
    });
    expect(JSON.parse(asset.params!)).toMatchObject({ modelID: 'imagea', prompt: 'a red fox in snow' });
    expect(done.outputs[0]!.assetSeq).toBe(asset.seq);

    await h.advance(5_000); // the notification window
    expect(h.notifications).toEqual([
      expect.objectContaining({ title: 'Image ready', body: 'a red fox in snow', jobId: submitted.jobId }),
    ]);
    expect(h.recorded.some((r) => r.event === 'queue:counts')).toBe(true);
  });

  it('says "waiting to send again", not "unknown", when the request provably never reached the service', async () => {
    const refused = createServiceClient({
      baseUrl: await closedPortUrl(),
      getApiKey: () => 'demo-key',
      logger: silentLogger(),
      retry: { maxAttempts: 1 },
    });
    h = await startEngineHarness({ engine: { service: jobsServiceFromClient(refused) } });
    h.engine.start();
    const job = await h.engine.submit({ kind: 'image', body: imageBody('never sent') });
    expect(job.error).toMatch(/could not be reached/);
    expect(h.engine.list()).toEqual([
      expect.objectContaining({ state: 'submitting', jobId: null, canCancelResend: true, resendAt: job.resendAt }),
    ]);
    refused.close();
  });

  it('refuses a request the rules refuse without sending anything', async () => {
    h = await startEngineHarness();
    h.engine.start();
    h.emulator.control.resetStats();
    await expect(
      h.engine.submit({ kind: 'image', body: { modelID: 'imagea', prompt: 'x', numImages: 9 } }),
    ).rejects.toMatchObject({
      info: { code: 'validation', field: 'numImages' },
    });
    expect(h.emulator.control.stats().total).toBe(0);
    expect(h.engine.list()).toEqual([]);
  });

  it('records a failed job with the service’s reason, and resubmits it once as a new job', async () => {
    h = await startEngineHarness();
    h.engine.start();
    const job = await h.engine.submit({ kind: 'image', body: imageBody('please [fail] now') });
    for (let i = 0; i < 10 && h.engine.get(job.localId).state !== 'failed'; i += 1) await h.advance(5_000);
    const failed = h.engine.get(job.localId);
    expect(failed).toMatchObject({ state: 'failed', canResubmit: true });
    expect(failed.error).toMatch(/fail/i);
    const again = await h.engine.resubmit(job.localId);
    expect(again.localId).not.toBe(job.localId);
    expect(again.request).toEqual(failed.request);
    expect(h.engine.get(job.localId)).toMatchObject({ canResubmit: false, resubmittedAs: again.localId });
    await expect(h.engine.resubmit(job.localId)).rejects.toMatchObject({ info: { code: 'conflict' } });
  });

  it('polls a video job at the video interval and finishes it', async () => {
    h = await startEngineHarness();
    h.engine.start();
    const job = await h.engine.submit({ kind: 'video', body: videoBody() });
    expect(job.nextPollAt! - job.submittedAt!).toBe(8_000);
    for (let i = 0; i < 60 && h.engine.get(job.localId).state !== 'succeeded'; i += 1) await h.advance(8_000);
    const done = h.engine.get(job.localId);
    expect(done.state).toBe('succeeded');
    expect(done.outputs[0]).toMatchObject({ kind: 'video' });
    expect(h.cache.assets.get('video', done.outputs[0]!.id)?.job_id).toBe(job.jobId);
  });

  it('links an upscale to its source image', async () => {
    h = await startEngineHarness();
    h.engine.start();
    const job = await h.engine.submit({ kind: 'image', body: imageBody() });
    for (let i = 0; i < 10 && h.engine.get(job.localId).state !== 'succeeded'; i += 1) await h.advance(5_000);
    const source = h.engine.get(job.localId).outputs[0]!.id;
    const up = await h.engine.submit({ kind: 'upscale', body: { imageID: source } });
    expect(up.modelId).toBe('imagea');
    for (let i = 0; i < 10 && h.engine.get(up.localId).state !== 'succeeded'; i += 1) await h.advance(5_000);
    const output = h.engine.get(up.localId).outputs[0]!;
    expect(h.cache.assets.get('image', output.id)).toMatchObject({ source_asset_id: source, job_id: up.jobId });
    // The source links its upscale at once, without waiting for a refresh, and the app is told.
    expect(h.cache.assets.get('image', source)).toMatchObject({
      upscaled_image_id: output.id,
      upscaled_image_url: output.url,
    });
    expect(h.recorded).toContainEqual({
      event: 'assets:changed',
      payload: { reason: 'job', kinds: ['image'], assets: [{ kind: 'image', id: source }] },
    });
  });

  it('lists the service’s job history a page at a time and refuses a range over 7 days', async () => {
    h = await startEngineHarness();
    h.engine.start();
    const job = await h.engine.submit({ kind: 'image', body: imageBody() });
    const now = h.time.now();
    const page = await h.engine.history({
      start: new Date(now - 3_600_000).toISOString(),
      end: new Date(now + 60_000).toISOString(),
    });
    expect(page.jobs).toEqual([expect.objectContaining({ jobId: job.jobId, localId: job.localId })]);
    expect(page.nextPageToken).toBeNull();
    await expect(
      h.engine.history({ start: new Date(now - 8 * 86_400_000).toISOString(), end: new Date(now).toISOString() }),
    ).rejects.toMatchObject({ info: { code: 'invalid_argument', field: 'end' } });
    expect(pollRequests(h.emulator).list).toBe(1);
  });

  it('gives up on a job the service no longer knows after a few tries: unknown, with resubmit', async () => {
    h = await startEngineHarness();
    h.engine.start();
    const now = h.time.now();
    const row = h.cache.jobs.insert({ kind: 'image', modelId: 'imagea', request: imageBody('vanished'), now });
    h.cache.jobs.update(
      row.local_id,
      { jobId: 'job-that-does-not-exist', state: 'queued', submittedAt: now, nextPollAt: now },
      now,
    );
    await h.engine.pollNow();
    for (let i = 0; i < 10 && h.engine.get(row.local_id).state !== 'unknown'; i += 1) await h.advance(30_000);
    expect(h.engine.get(row.local_id)).toMatchObject({ state: 'unknown', canResubmit: true });
    expect(h.engine.get(row.local_id).error).toMatch(/no longer knows this job/);
  });

  it('checks nothing while the user paused checking jobs, and catches up when unpaused', async () => {
    let paused = true;
    let listener: ((value: boolean) => void) | null = null;
    h = await startEngineHarness({
      engine: {
        preferences: {
          pollingPaused: () => paused,
          onPollingPausedChange: (l) => {
            listener = l;
            return () => void (listener = null);
          },
        },
      },
    });
    h.engine.start();
    const job = await h.engine.submit({ kind: 'image', body: imageBody() });
    h.emulator.control.resetStats();
    await h.advance(60_000);
    expect(pollRequests(h.emulator).total).toBe(0);
    paused = false;
    listener!(false);
    await h.advance(6_000);
    expect(pollRequests(h.emulator).total).toBe(1);
    expect(h.engine.get(job.localId).state).toBe('succeeded');
  });

  it('does not let a job whose outputs cannot be saved hold up the others, and ends it with the reason', async () => {
    h = await startEngineHarness();
    h.engine.start();
    const video = await h.engine.submit({ kind: 'video', body: videoBody() });
    const image = await h.engine.submit({ kind: 'image', body: imageBody() });
    // Saving images breaks locally (videos still save): only the image job is affected.
    h.cache.sqlite.exec(
      "CREATE TRIGGER broken BEFORE INSERT ON assets WHEN new.kind = 'image' BEGIN SELECT RAISE(ABORT, 'disk trouble'); END",
    );
    for (let i = 0; i < 40 && h.engine.get(video.localId).state !== 'succeeded'; i += 1) await h.advance(8_000);
    expect(h.engine.get(video.localId).state).toBe('succeeded');
    for (let i = 0; i < 40 && h.engine.get(image.localId).state !== 'failed'; i += 1) {
      await h.advance(Math.max(5_000, (h.engine.get(image.localId).nextPollAt ?? 0) - h.time.now()));
    }
    expect(h.engine.get(image.localId)).toMatchObject({ state: 'failed', canResubmit: true });
    expect(h.engine.get(image.localId).error).toMatch(/could not record this job's outcome: disk trouble/);
  });
});

// Attribution that is never wrong (issue 28, item 1), against the real emulator: rows whose answers
// were lost are tied to a service job only when that is the one possible reading; otherwise the
// jobs are kept as "found on the service" with no request (nothing of any request in their files),
// and the user's confirmed "This is it" ties one to its request.
import { afterEach, describe, expect, it } from 'vitest';
import type { JobInfo } from '../../contract/ipc/jobs.ts';
import { settingsOfAsset } from '../library/media/embed-settings.ts';
import { MAYBE_SENT_MESSAGE, RECONCILE_WINDOW } from './reconcile.ts';
import { imageBody, startEngineHarness, videoBody, type EngineHarness } from './test-support/engine-harness.ts';

let h: EngineHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** A previous run wrote the row and sent the POST, then died before the answer: the service has the job. */
async function lostAnswer(harness: EngineHarness, kind: 'image' | 'video', body: Record<string, unknown>) {
  const row = harness.cache.jobs.insert({
    kind,
    modelId: String(body['modelID']),
    request: body,
    now: harness.time.now(),
  });
  const created = await harness.client.submit({ kind, body } as unknown as Parameters<typeof harness.client.submit>[0]);
  return { localId: row.local_id, jobId: created.jobId };
}

async function pastWindow(harness: EngineHarness): Promise<void> {
  for (let i = 0; i < 8; i += 1) await harness.advance(RECONCILE_WINDOW.afterMs / 6);
}

const byId = (list: JobInfo[], localId: number) => list.find((j) => j.localId === localId)!;

describe('attribution', () => {
  it('keeps two jobs lost in the same moment unattributed, with no request in their files, until the user says which', async () => {
    h = await startEngineHarness();
    const first = await lostAnswer(h, 'image', imageBody('first: a koi pond from above'));
    await h.advance(1_000);
    const second = await lostAnswer(h, 'image', imageBody('second: a red bicycle'));
    h.engine.start();
    await pastWindow(h);
    const list = h.engine.list();
    for (const row of [first, second]) {
      const info = byId(list, row.localId);
      expect(info).toMatchObject({ state: 'unknown', jobId: null, error: MAYBE_SENT_MESSAGE });
      expect(info.possibleJobs.map((p) => p.jobId).sort()).toEqual([first.jobId, second.jobId].sort());
    }
    const found = list.filter((j) => j.unattributed);
    expect(found.map((j) => j.jobId).sort()).toEqual([first.jobId, second.jobId].sort());
    for (const job of found) {
      expect(job).toMatchObject({ prompt: null, request: {}, canResubmit: false });
      expect(job.mayBeFrom).toEqual([first.localId, second.localId]);
    }
    // Followed to their end; their outputs are in the library with no prompt and no settings.
    for (let i = 0; i < 10 && h.engine.list().some((j) => j.unattributed && j.state !== 'succeeded'); i += 1)
      await h.advance(5_000);
    const done = h.engine.list().filter((j) => j.unattributed);
    expect(done.map((j) => j.state)).toEqual(['succeeded', 'succeeded']);
    for (const job of done) {
      for (const output of job.outputs) {
        const asset = h.cache.assets.get(output.kind, output.id)!;
        expect(asset).toMatchObject({ prompt: null, params: null, preset: null, job_id: job.jobId });
        expect(settingsOfAsset(asset)).toBeNull();
      }
    }

    // "This is it": only a possible sender, only once; then the request's prompt applies.
    const firstJob = done.find((j) => j.jobId === first.jobId)!;
    expect(() => h!.engine.attribute(firstJob.localId, 999)).toThrow(/not in this library/);
    const tied = h.engine.attribute(firstJob.localId, first.localId);
    expect(tied).toMatchObject({ localId: first.localId, jobId: first.jobId, state: 'succeeded' });
    expect(tied.prompt).toBe('first: a koi pond from above');
    const asset = h.cache.assets.get(tied.outputs[0]!.kind, tied.outputs[0]!.id)!;
    expect(asset.prompt).toBe('first: a koi pond from above');
    expect(() => h!.engine.attribute(firstJob.localId, second.localId)).toThrow(/no longer waiting/);
    const after = h.engine.list();
    expect(after.find((j) => j.localId === firstJob.localId)).toBeUndefined();
    expect(byId(after, second.localId).possibleJobs.map((p) => p.jobId)).toEqual([second.jobId]);
    // The tied request is no other found job's possible sender any more.
    expect(after.find((j) => j.jobId === second.jobId)!.mayBeFrom).toEqual([second.localId]);
  });

  it('ties each row to its job when what the finished jobs made leaves no choice (a video and an image)', async () => {
    h = await startEngineHarness();
    const video = await lostAnswer(h, 'video', videoBody('waves'));
    const image = await lostAnswer(h, 'image', imageBody('a lighthouse'));
    await h.advance(60_000); // both finished: their records show a video and an image
    h.engine.start();
    await pastWindow(h);
    const list = h.engine.list();
    expect(byId(list, video.localId)).toMatchObject({ jobId: video.jobId, prompt: 'waves' });
    expect(byId(list, image.localId)).toMatchObject({ jobId: image.jobId, prompt: 'a lighthouse' });
    expect(list.filter((j) => j.unattributed)).toEqual([]);
  });

  it('refuses to tie a job to a request that was not sent at that moment', async () => {
    h = await startEngineHarness();
    const a = await lostAnswer(h, 'image', imageBody('a'));
    const b = await lostAnswer(h, 'image', imageBody('b'));
    h.engine.start();
    await pastWindow(h);
    await h.advance(30 * 60_000);
    const later = await h.engine.submit({ kind: 'image', body: imageBody('much later') });
    const found = h.engine.list().find((j) => j.unattributed)!;
    expect(found.mayBeFrom).toEqual([a.localId, b.localId]);
    expect(() => h!.engine.attribute(found.localId, later.localId)).toThrow(/cannot have created this job/);
    expect(h.engine.get(found.localId).unattributed).toBe(true);
  });
});

// What the family tree learns from the jobs engine: a "Generate again" records the job it repeats
// (jobs.origin_job_id, never sent), and a video sent with an output as its first frame is found as
// that output's child, both through the real outbox against the emulator.
import { afterEach, describe, expect, it } from 'vitest';
import type { JobInfo } from '../../contract/ipc/jobs.ts';
import { imageBody, startEngineHarness, type EngineHarness } from './test-support/engine-harness.ts';

let h: EngineHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function finished(harness: EngineHarness, job: JobInfo): Promise<JobInfo> {
  for (let i = 0; i < 40 && harness.engine.get(job.localId).state !== 'succeeded'; i += 1)
    await harness.advance(15_000);
  const done = harness.engine.get(job.localId);
  expect(done.state).toBe('succeeded');
  return done;
}

describe('lineage from the jobs engine', () => {
  it('keeps the job a "Generate again" repeats, so their results are siblings', async () => {
    h = await startEngineHarness();
    h.engine.start();
    const first = await finished(h, await h.engine.submit({ kind: 'image', body: imageBody('a heron') }));
    const again = await finished(
      h,
      await h.engine.submit({ kind: 'image', body: imageBody('a heron'), originJobId: first.jobId! }),
    );
    // Kept beside the request, not in it: what was sent (and what remix reuses) is the request alone.
    const row = h.cache.jobs.get(again.localId)!;
    expect(row.origin_job_id).toBe(first.jobId);
    expect(JSON.parse(row.request)).not.toHaveProperty('originJobId');
    const mine = h.cache.assets.get('image', first.outputs[0]!.id)!;
    expect(h.cache.lineage.variations(first.jobId!, 10).rows.map((r) => r.id)).toEqual([again.outputs[0]!.id]);
    expect(h.cache.lineage.variations(again.jobId!, 10).rows.map((r) => r.id)).toEqual([mine.id]);
  });

  it("finds a video made from an output as its first frame among the output's children", async () => {
    h = await startEngineHarness();
    h.engine.start();
    const still = await finished(h, await h.engine.submit({ kind: 'image', body: imageBody('a kite') }));
    const frame = h.cache.assets.get('image', still.outputs[0]!.id)!;
    const clip = await finished(
      h,
      await h.engine.submit({
        kind: 'video',
        body: {
          modelID: 'videoa-3.1',
          prompt: 'the kite rises',
          referenceImages: [{ url: frame.url, role: 'first_frame' }],
        },
      }),
    );
    expect(h.cache.lineage.referenceChildren(frame.seq, 'video', 10).rows.map((r) => r.id)).toEqual([
      clip.outputs[0]!.id,
    ]);
    const video = h.cache.assets.get('video', clip.outputs[0]!.id)!;
    expect(h.cache.lineage.referenceParents(video.seq).map((r) => [r.id, r.ref_role])).toEqual([
      [frame.id, 'first_frame'],
    ]);
  });
});

// Reconciliation in one process: a POST whose answer is lost leaves the row 'submitting'; once its
// window has closed the engine adopts the job the service created, sends again a recent request
// that never arrived (submission-resend.test.ts), or says 'unknown' for an old one.
import { afterEach, describe, expect, it } from 'vitest';
import { imageBody, startEngineHarness, type EngineHarness } from './test-support/engine-harness.ts';
import { NEVER_ARRIVED_MESSAGE, RECONCILE_WINDOW } from './reconcile.ts';
import { RESEND_MAX_AGE_MS } from './resend-policy.ts';

let h: EngineHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const posts = (harness: EngineHarness): number =>
  harness.emulator.control.stats().byRoute['POST /images/generation'] ?? 0;

describe('reconciliation', () => {
  it('adopts the job behind a cut-off answer and follows it to the end', async () => {
    h = await startEngineHarness();
    h.engine.start();
    h.emulator.control.setFaults({
      rules: [{ method: 'POST', path: '/images/generation', truncateBody: { count: 1 } }],
    });
    const job = await h.engine.submit({ kind: 'image', body: imageBody('lost answer') });
    expect(job).toMatchObject({ state: 'submitting', jobId: null });
    expect(job.error).toMatch(/checking whether it received/);
    await h.advance(5_000);
    expect(h.engine.get(job.localId).jobId).toBeNull(); // its window is open: another job may still be its
    for (let i = 0; i < 10 && h.engine.get(job.localId).jobId === null; i += 1) await h.advance(30_000);
    const adopted = h.engine.get(job.localId);
    expect(adopted.jobId).toMatch(/\S/);
    for (let i = 0; i < 10 && h.engine.get(job.localId).state !== 'succeeded'; i += 1) await h.advance(5_000);
    expect(h.engine.get(job.localId)).toMatchObject({ state: 'succeeded', prompt: 'lost answer' });
    expect(posts(h)).toBe(1);
  });

  it('marks an old request the service never got as unknown, and resubmits it only when asked', async () => {
    h = await startEngineHarness();
    // A previous run, long ago, wrote the row and died before (or while) sending it.
    const then = h.time.now() - RESEND_MAX_AGE_MS - RECONCILE_WINDOW.afterMs - 60_000;
    const row = h.cache.jobs.insert({ kind: 'image', modelId: 'imagea', request: imageBody('long ago'), now: then });
    h.engine.start();
    await h.settle();
    const unknown = h.engine.get(row.local_id);
    expect(unknown).toMatchObject({ state: 'unknown', canResubmit: true, jobId: null, error: NEVER_ARRIVED_MESSAGE });
    expect(posts(h)).toBe(0); // never resent on its own
    const again = await h.engine.resubmit(row.local_id);
    expect(again.state).toBe('queued');
    expect(posts(h)).toBe(1);
  });

  it('at start-up adopts a job whose answer never reached a previous run', async () => {
    h = await startEngineHarness();
    // A previous run wrote the row, sent the POST and died before writing the answer.
    const now = h.time.now();
    h.cache.jobs.insert({ kind: 'image', modelId: 'imagea', request: imageBody('from before the crash'), now });
    const created = await h.client.submit({
      kind: 'image',
      body: { modelID: 'imagea', prompt: 'from before the crash', numImages: 1 },
    });
    h.engine.start();
    for (let i = 0; i < 8; i += 1) await h.advance(RECONCILE_WINDOW.afterMs / 6);
    const [row] = h.engine.list();
    expect(row).toMatchObject({ jobId: created.jobId, prompt: 'from before the crash' });
  });

  it('leaves rows alone while the service cannot be asked, and reconciles once it answers', async () => {
    h = await startEngineHarness();
    const now = h.time.now();
    h.cache.jobs.insert({ kind: 'image', modelId: 'imagea', request: imageBody(), now });
    const created = await h.client.submit({ kind: 'image', body: { modelID: 'imagea', prompt: 'x', numImages: 1 } });
    h.emulator.control.setFaults({ rules: [{ method: 'GET', path: '/jobs', serverError: { count: 3 } }] });
    h.engine.start();
    await h.settle();
    expect(h.engine.list()[0]).toMatchObject({ state: 'submitting', jobId: null });
    for (let i = 0; i < 6; i += 1) await h.advance(Math.max(1_000, h.engine.notBefore - h.time.now()));
    for (let i = 0; i < 8 && h.engine.list()[0]?.jobId === null; i += 1) await h.advance(RECONCILE_WINDOW.afterMs / 6);
    expect(h.engine.list()[0]?.jobId).toBe(created.jobId);
  });
});

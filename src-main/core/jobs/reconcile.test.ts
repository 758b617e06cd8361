// Reconciliation in one process: a POST whose answer is lost leaves the row 'submitting'; the
// engine then finds the job the service created (adopt) or, when there is none, says 'unknown'.
import { afterEach, describe, expect, it } from 'vitest';
import { imageBody, startEngineHarness, type EngineHarness } from './test-support/engine-harness.ts';
import { UNKNOWN_MESSAGE } from './reconcile.ts';

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
    const adopted = h.engine.get(job.localId);
    expect(adopted.jobId).toMatch(/\S/);
    expect(['queued', 'running']).toContain(adopted.state);
    for (let i = 0; i < 10 && h.engine.get(job.localId).state !== 'succeeded'; i += 1) await h.advance(5_000);
    expect(h.engine.get(job.localId)).toMatchObject({ state: 'succeeded', prompt: 'lost answer' });
    expect(posts(h)).toBe(1);
  });

  it('marks a request the service never got as unknown once its window closed, and resubmits only when asked', async () => {
    h = await startEngineHarness();
    h.engine.start();
    h.emulator.control.setFaults({
      rules: [{ method: 'POST', path: '/images/generation', dropConnection: { count: 1 } }],
    });
    const job = await h.engine.submit({ kind: 'image', body: imageBody('dropped') });
    expect(job.state).toBe('submitting');
    await h.advance(5_000);
    expect(h.engine.get(job.localId).state).toBe('submitting'); // still inside the window: maybe it lands yet
    for (let i = 0; i < 40; i += 1) await h.advance(5_000);
    const unknown = h.engine.get(job.localId);
    expect(unknown).toMatchObject({ state: 'unknown', canResubmit: true, jobId: null, error: UNKNOWN_MESSAGE });
    expect(posts(h)).toBe(1); // never resent on its own
    const again = await h.engine.resubmit(job.localId);
    expect(again.state).toBe('queued');
    expect(posts(h)).toBe(2);
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
    await h.settle();
    const [row] = h.engine.list();
    expect(row).toMatchObject({ jobId: created.jobId, prompt: 'from before the crash' });
    expect(['queued', 'running']).toContain(row!.state);
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
    expect(h.engine.list()[0]?.jobId).toBe(created.jobId);
  });
});

// Training against the emulator: refusals explained, a wall-clock watch every 5 minutes that
// survives a restart, "taking longer than usual", and one notification when the model is ready.
import { afterEach, describe, expect, it } from 'vitest';
import type { QueueCountsInfo } from '../../contract/ipc/shell.ts';
import type { TrainingInfo } from '../../contract/ipc/training.ts';
import { DEMO_TIME_SCALE } from '../../contract/training-time.ts';
import { JOB_TIMINGS } from '../../../emulator/job-factory.ts';
import { smallPng } from '../../../emulator/test-support.ts';
import { startEngineHarness, type EngineHarness } from './test-support/engine-harness.ts';
import { scaledTraining } from './training-watcher.ts';

let h: EngineHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const MINUTE = 60_000;

async function modelWithPhotos(harness: EngineHarness, count: number): Promise<string> {
  const model = await harness.client.createModel({});
  const png = await smallPng();
  for (let i = 0; i < count; i += 1) {
    // Distinct bytes per photo (the service does not care, but it keeps the fixture honest).
    const bytes = Buffer.concat([png, Buffer.from([i])]);
    await harness.client.uploadImage({ modelID: model.id, type: 'modelInput', file: { name: `p${i}.png`, bytes } });
  }
  return model.id;
}

/**
 * Moves the clock by `ms` in one jump. A jump longer than the engine's timer cap looks like a
 * sleep to it, so it catches up within a few jittered seconds: give it those too.
 */
async function jump(harness: EngineHarness, ms: number): Promise<void> {
  await harness.advance(ms);
  await harness.advance(6_000);
}

const modelChecks = (harness: EngineHarness): number =>
  harness.emulator.control.stats().byRoute['GET /models/:modelID'] ?? 0;

describe('training watcher', () => {
  it('explains a refusal for too few photos with the count', async () => {
    h = await startEngineHarness();
    h.engine.start();
    const modelId = await modelWithPhotos(h, 5);
    await expect(h.engine.startTraining(modelId)).rejects.toMatchObject({
      info: { code: 'validation', field: 'modelId', message: 'This model needs 12–20 training photos; it has 5.' },
    });
    expect(h.engine.trainingStatus(modelId).state).toBe('idle');
  });

  it('explains a 429 as too many trainings running', async () => {
    h = await startEngineHarness({ emulator: { maxConcurrentTrainings: 1 } });
    h.engine.start();
    const first = await modelWithPhotos(h, 12);
    const second = await modelWithPhotos(h, 12);
    await h.engine.startTraining(first);
    await expect(h.engine.startTraining(second)).rejects.toMatchObject({
      info: { code: 'rate_limited', message: 'Too many trainings are running; try again in a few minutes.' },
    });
  });

  it('checks every 5 minutes on the wall clock, across a restart, until ready, and notifies once', async () => {
    h = await startEngineHarness();
    h.engine.start();
    const modelId = await modelWithPhotos(h, 12);
    const counts: QueueCountsInfo[] = [];
    h.events.subscribe((event, payload) => {
      if (event === 'queue:counts') counts.push(payload as QueueCountsInfo);
    });
    const started = await h.engine.startTraining(modelId);
    expect(started).toMatchObject({
      state: 'training',
      usualMs: { min: 20 * MINUTE, max: 25 * MINUTE },
      checkEveryMs: 5 * MINUTE,
      elapsedMs: 0,
    });
    // A training is a job like the others: counted, and listed for the Jobs view.
    expect(counts.at(-1)).toEqual({ queued: 0, running: 0, training: 1 });
    expect(h.engine.trainings().map((t) => [t.modelId, t.state])).toEqual([[modelId, 'training']]);
    expect(started.nextCheckAt! - started.startedAt!).toBe(5 * MINUTE);
    h.emulator.control.resetStats();
    await jump(h, 4 * MINUTE - 6_000);
    expect(modelChecks(h)).toBe(0); // polling faster does not speed training up
    await jump(h, 1 * MINUTE);
    expect(modelChecks(h)).toBe(1);
    const at5 = h.engine.trainingStatus(modelId);
    expect(at5).toMatchObject({ state: 'training', serviceStatus: 'training' });
    expect(at5.message).toMatch(/^Training for 5 min; it usually takes 20–25 min\.$/);

    await h.reopen(); // the schedule lives in the database
    await jump(h, 5 * MINUTE);
    expect(modelChecks(h)).toBe(2);

    const changes: TrainingInfo[] = [];
    h.events.subscribe((event, payload) => {
      if (event === 'training:changed') changes.push(payload as TrainingInfo);
    });
    for (let i = 0; i < 6 && h.engine.trainingStatus(modelId).state !== 'ready'; i += 1) await jump(h, 5 * MINUTE);
    const ready = h.engine.trainingStatus(modelId);
    expect(ready.state).toBe('ready');
    expect(ready.elapsedMs).toBeGreaterThanOrEqual(20 * MINUTE);
    expect(ready.nextCheckAt).toBeNull();
    expect(changes.at(-1)?.state).toBe('ready');
    expect(h.notifications.filter((n) => n.title === 'Model ready')).toHaveLength(1);
    expect(counts.at(-1)).toEqual({ queued: 0, running: 0, training: 0 });
    expect(h.engine.trainings().map((t) => [t.modelId, t.state])).toEqual([[modelId, 'ready']]);
    const checks = modelChecks(h);
    await h.reopen();
    await jump(h, 30 * MINUTE);
    expect(modelChecks(h)).toBe(checks); // done: no more checks
    expect(h.notifications.filter((n) => n.title === 'Model ready')).toHaveLength(1);
  });

  it('says "taking longer than usual" past the threshold and keeps checking, less often', async () => {
    h = await startEngineHarness({ engine: { options: { training: { slowAfterMs: 10 * MINUTE } } } });
    h.engine.start();
    const modelId = await modelWithPhotos(h, 12);
    await h.engine.startTraining(modelId);
    await jump(h, 5 * MINUTE);
    await jump(h, 5 * MINUTE);
    const slow = h.engine.trainingStatus(modelId);
    expect(slow.state).toBe('slow');
    expect(slow.message).toMatch(
      /Taking longer than usual \(10 min; usually 20–25 min\)\. Still checking every 15 minutes\./,
    );
    expect(slow.checkEveryMs).toBe(15 * MINUTE);
    expect(slow.nextCheckAt! - slow.lastCheckedAt!).toBe(15 * MINUTE);
    for (let i = 0; i < 4 && h.engine.trainingStatus(modelId).state !== 'ready'; i += 1) await jump(h, 15 * MINUTE);
    expect(h.engine.trainingStatus(modelId).state).toBe('ready');
  });

  it('backs off when the service fails during a check and tries again', async () => {
    h = await startEngineHarness();
    h.engine.start();
    const modelId = await modelWithPhotos(h, 12);
    await h.engine.startTraining(modelId);
    h.emulator.control.setFaults({ rules: [{ method: 'GET', path: '/models/:modelID', serverError: { count: 2 } }] });
    await jump(h, 5 * MINUTE);
    expect(h.engine.trainingStatus(modelId).lastCheckedAt).toBeNull();
    for (let i = 0; i < 5; i += 1) await h.advance(30_000);
    expect(h.engine.trainingStatus(modelId).lastCheckedAt).not.toBeNull();
  });

  it("on the demo's clock: checked every 15 s and said to take what the demo's emulator takes", async () => {
    const demo = scaledTraining(DEMO_TIME_SCALE);
    // The demo's emulator runs a training in its virtual 20–25 minutes, DEMO_TIME_SCALE times faster.
    const [min, max] = JOB_TIMINGS.training.total;
    expect(demo.usualMs).toEqual({ min: min / DEMO_TIME_SCALE, max: max / DEMO_TIME_SCALE });
    h = await startEngineHarness({ engine: { options: { training: demo } } });
    h.engine.start();
    const modelId = await modelWithPhotos(h, 12);
    const started = await h.engine.startTraining(modelId);
    expect(started).toMatchObject({ usualMs: { min: 60_000, max: 75_000 }, checkEveryMs: 15_000 });
    expect(started.nextCheckAt! - started.startedAt!).toBe(15_000);
    expect(started.message).toBe('Training for 0 s; it usually takes 60–75 s.');
  });
});

// A model's phase, training progress against the usual time, and why Train is unavailable.
import { describe, expect, it } from 'vitest';
import type { ModelInfo } from '@contract/ipc/models.ts';
import {
  checkIntervalText,
  modelPhase,
  trainAvailability,
  trainingProgress,
  usualTrainingText,
} from './model-status.ts';

const MINUTE = 60_000;
const NOW = Date.parse('2025-05-01T12:00:00Z');

const model = (over: Partial<ModelInfo> & { trainState?: string | null; startedMinutesAgo?: number } = {}) => {
  const { trainState = null, startedMinutesAgo, ...rest } = over;
  return {
    status: 'new',
    modelType: 'person',
    uploads: { trainingImages: 0, referenceImages: 0 },
    training: {
      state: trainState,
      startedAt: startedMinutesAgo === undefined ? null : new Date(NOW - startedMinutesAgo * MINUTE).toISOString(),
      lastCheckedAt: null,
    },
    ...rest,
  };
};

describe('modelPhase', () => {
  it('reads the service status and the watcher together', () => {
    expect(modelPhase(model(), NOW)).toMatchObject({ phase: 'new', tone: 'neutral' });
    expect(modelPhase(model({ trainState: 'training', startedMinutesAgo: 3 }), NOW)).toMatchObject({
      phase: 'training',
    });
    expect(modelPhase(model({ status: 'training' }), NOW).phase).toBe('training');
    expect(modelPhase(model({ trainState: 'training', startedMinutesAgo: 36 }), NOW)).toMatchObject({
      phase: 'slow',
      tone: 'warning',
    });
    // The service says ready before the watcher's next check: ready.
    expect(modelPhase(model({ status: 'ready', trainState: 'training', startedMinutesAgo: 22 }), NOW).phase).toBe(
      'ready',
    );
    expect(modelPhase(model({ status: 'Failed' }), NOW)).toMatchObject({ phase: 'failed', label: 'Failed' });
    expect(modelPhase(model({ trainState: 'failed' }), NOW).phase).toBe('failed');
    // A status nobody told us about is shown as the service wrote it.
    expect(modelPhase(model({ status: 'queued_for_gpu' }), NOW)).toEqual({
      phase: 'other',
      label: 'queued_for_gpu',
      tone: 'neutral',
    });
  });
});

describe('trainingProgress', () => {
  const info = { usualMs: { min: 20 * MINUTE, max: 25 * MINUTE }, slowAfterMs: 35 * MINUTE };
  it('counts minutes against the usual 20–25 and says when it takes longer than usual', () => {
    expect(trainingProgress({ ...info, startedAt: null }, NOW)).toBeNull();
    expect(trainingProgress({ ...info, startedAt: NOW - 10 * MINUTE - 5_000 }, NOW)).toMatchObject({
      slow: false,
      text: '10 min of the usual 20–25 min',
    });
    expect(trainingProgress({ ...info, startedAt: NOW - 10 * MINUTE }, NOW)?.fraction).toBe(0.4);
    expect(trainingProgress({ ...info, startedAt: NOW }, NOW)).toMatchObject({ elapsedMs: 0, fraction: 0.02 });
    const late = trainingProgress({ ...info, startedAt: NOW - 40 * MINUTE }, NOW);
    expect(late).toMatchObject({ slow: true, fraction: 0.97 });
    expect(late?.text).toContain('taking longer than usual');
  });
  it("says the demo's training in seconds, as long as the demo really takes", () => {
    const demo = { usualMs: { min: 60_000, max: 75_000 }, slowAfterMs: 105_000 };
    expect(trainingProgress({ ...demo, startedAt: NOW - 12_400 }, NOW)?.text).toBe('12 s of the usual 60–75 s');
    expect(trainingProgress({ ...demo, startedAt: NOW - 110_000 }, NOW)).toMatchObject({
      slow: true,
      text: '110 s — taking longer than usual (usually 60–75 s)',
    });
    expect(usualTrainingText(demo)).toBe('Training usually takes 60–75 s.');
    expect(checkIntervalText({ checkEveryMs: 15_000 })).toBe('Atelier asks the service every 15 seconds');
    expect(checkIntervalText({ checkEveryMs: 5 * MINUTE })).toBe('Atelier asks the service every 5 minutes');
  });
});

describe('trainAvailability', () => {
  it('enables Train only with 12–20 photos up and nothing uploading, and says why otherwise', () => {
    const withPhotos = (n: number) => model({ uploads: { trainingImages: n, referenceImages: 0 } });
    expect(trainAvailability(withPhotos(9), 0, NOW)).toEqual({
      offered: true,
      blockedBy: 'Needs 12–20 training photos; it has 9. Add 3 more.',
    });
    expect(trainAvailability(withPhotos(12), 0, NOW)).toEqual({ offered: true, blockedBy: null });
    expect(trainAvailability(withPhotos(20), 0, NOW).blockedBy).toBeNull();
    expect(trainAvailability(withPhotos(12), 2, NOW).blockedBy).toBe('Wait for 2 uploads to finish.');
    expect(trainAvailability(withPhotos(21), 0, NOW).blockedBy).toContain('Delete 1');
    const training = model({ uploads: { trainingImages: 14, referenceImages: 0 }, trainState: 'training' });
    expect(trainAvailability(training, 0, NOW).blockedBy).toBe('Training is running.');
    expect(trainAvailability({ ...withPhotos(14), modelType: 'free', status: 'ready' }, 0, NOW).offered).toBe(false);
  });
});

// A model's phase, training progress against the usual time, and why Train is unavailable.
import { describe, expect, it } from 'vitest';
import type { ModelInfo } from '@contract/ipc/models.ts';
import { modelPhase, trainAvailability, trainingProgress } from './model-status.ts';

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
  const info = { usualMinutes: { min: 20, max: 25 }, slowAfterMinutes: 35 };
  it('counts minutes against the usual 20–25 and says when it takes longer than usual', () => {
    expect(trainingProgress({ ...info, startedAt: null }, NOW)).toBeNull();
    expect(trainingProgress({ ...info, startedAt: NOW - 10 * MINUTE - 5_000 }, NOW)).toEqual({
      elapsedMinutes: 10,
      fraction: 0.4,
      slow: false,
      text: '10 min of the usual 20–25 min',
    });
    expect(trainingProgress({ ...info, startedAt: NOW }, NOW)).toMatchObject({ elapsedMinutes: 0, fraction: 0.02 });
    const late = trainingProgress({ ...info, startedAt: NOW - 40 * MINUTE }, NOW);
    expect(late).toMatchObject({ slow: true, fraction: 0.97 });
    expect(late?.text).toContain('taking longer than usual');
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

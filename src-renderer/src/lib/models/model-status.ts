// How a model's state reads to the user: its phase from the service status and the training watcher,
// the progress of a training against its usual duration on this account (the watcher's, in
// TrainingInfo: 20–25 minutes on the service, about a minute in the demo), and why Train is not available.
import type { ModelInfo } from '@contract/ipc/models.ts';
import type { TrainingInfo } from '@contract/ipc/training.ts';
import { UPLOAD_RULES } from '@contract/rules/index.ts';
import { spokenElapsed, spokenEvery, spokenRange } from '@contract/training-time.ts';

export type ModelPhase = 'new' | 'training' | 'slow' | 'ready' | 'failed' | 'other';

export interface PhaseView {
  phase: ModelPhase;
  /** The badge text: our words for known phases, the service's own word otherwise. */
  label: string;
  tone: 'neutral' | 'accent' | 'success' | 'warning' | 'danger';
}

const FAILED_STATUS = /fail|error|cancel|abort|reject/i;
/** Before the watcher has said anything of a model (its TrainingInfo), a training is called slow after this. */
export const SLOW_AFTER_MINUTES = 35;
const MINUTE = 60_000;

/** GET /models adds the service's free and general models: they are not the user's to train or delete. */
export const isProvidedModel = (model: Pick<ModelInfo, 'modelType'>): boolean =>
  model.modelType === 'free' || model.modelType === 'general';

const startedAtMs = (model: Pick<ModelInfo, 'training'>): number | null => {
  const at = model.training.startedAt ? Date.parse(model.training.startedAt) : NaN;
  return Number.isFinite(at) ? at : null;
};

export function modelPhase(model: Pick<ModelInfo, 'status' | 'training'>, now: number): PhaseView {
  const status = model.status.trim().toLowerCase();
  const watched = model.training.state === 'training' || model.training.state === 'slow';
  // The cached status is the service's latest word: "ready" ends a training even before the watcher's next check.
  if (status === 'ready') return { phase: 'ready', label: 'ready', tone: 'success' };
  if (status === 'deleted') return { phase: 'failed', label: 'deleted', tone: 'danger' };
  if (FAILED_STATUS.test(status)) return { phase: 'failed', label: model.status, tone: 'danger' };
  if (watched || status === 'training') {
    const started = startedAtMs(model);
    const slow = model.training.state === 'slow' || (started !== null && now - started >= SLOW_AFTER_MINUTES * MINUTE);
    return slow
      ? { phase: 'slow', label: 'training · slow', tone: 'warning' }
      : { phase: 'training', label: 'training', tone: 'accent' };
  }
  if (model.training.state === 'failed') return { phase: 'failed', label: 'failed', tone: 'danger' };
  if (status === 'new') return { phase: 'new', label: 'new', tone: 'neutral' };
  return { phase: 'other', label: model.status || 'unknown', tone: 'neutral' };
}

export interface TrainingProgressView {
  elapsedMs: number;
  /** Against the usual maximum, held below 1 until the service says ready. */
  fraction: number;
  slow: boolean;
  /** "12 s of the usual 60–75 s", "3 min of the usual 20–25 min". */
  text: string;
}

export function trainingProgress(
  info: Pick<TrainingInfo, 'startedAt' | 'usualMs' | 'slowAfterMs'>,
  now: number,
): TrainingProgressView | null {
  if (info.startedAt === null) return null;
  const elapsedMs = Math.max(0, now - info.startedAt);
  const usual = spokenRange(info.usualMs);
  const elapsed = spokenElapsed(elapsedMs, info.usualMs);
  const slow = elapsedMs >= info.slowAfterMs;
  // A sliver from the start, so the bar reads as begun; never full before the service says ready.
  const fraction = Math.min(0.97, Math.max(0.02, elapsedMs / info.usualMs.max));
  const text = slow ? `${elapsed} — taking longer than usual (usually ${usual})` : `${elapsed} of the usual ${usual}`;
  return { elapsedMs, fraction, slow, text };
}

/** "Training usually takes 60–75 s." / "… 20–25 min." */
export const usualTrainingText = (info: Pick<TrainingInfo, 'usualMs'>): string =>
  `Training usually takes ${spokenRange(info.usualMs)}.`;

/** "Atelier asks the service every 15 seconds" — what the watcher really does now. */
export const checkIntervalText = (info: Pick<TrainingInfo, 'checkEveryMs'>): string =>
  `Atelier asks the service ${spokenEvery(info.checkEveryMs)}`;

export interface TrainAvailability {
  /** The model page may offer Train at all (not for the service's own models). */
  offered: boolean;
  /** Why Train is disabled; null when it can be pressed. */
  blockedBy: string | null;
}

export function trainAvailability(
  model: Pick<ModelInfo, 'status' | 'training' | 'modelType' | 'uploads'>,
  uploadsInFlight: number,
  now: number,
): TrainAvailability {
  if (isProvidedModel(model))
    return { offered: false, blockedBy: 'The service provides this model; it cannot be trained.' };
  const phase = modelPhase(model, now).phase;
  if (phase === 'training' || phase === 'slow') return { offered: true, blockedBy: 'Training is running.' };
  if (model.status.trim().toLowerCase() === 'deleted')
    return { offered: true, blockedBy: 'The service reports this model as deleted.' };
  const count = model.uploads.trainingImages;
  const { trainingMin: min, trainingMax: max } = UPLOAD_RULES;
  if (uploadsInFlight > 0)
    return {
      offered: true,
      blockedBy: `Wait for ${uploadsInFlight} upload${uploadsInFlight === 1 ? '' : 's'} to finish.`,
    };
  if (count < min) {
    const more = min - count;
    return {
      offered: true,
      blockedBy: `Needs ${min}–${max} training photos; it has ${count}. Add ${more} more.`,
    };
  }
  if (count > max)
    return { offered: true, blockedBy: `Needs ${min}–${max} training photos; it has ${count}. Delete ${count - max}.` };
  return { offered: true, blockedBy: null };
}

// How a model's state reads to the user: its phase from the service status and the training watcher,
// the progress of a training against the usual 20–25 minutes, and why Train is not available.
import type { ModelInfo } from '@contract/ipc/models.ts';
import type { TrainingInfo } from '@contract/ipc/training.ts';
import { UPLOAD_RULES } from '@contract/rules/index.ts';

export type ModelPhase = 'new' | 'training' | 'slow' | 'ready' | 'failed' | 'other';

export interface PhaseView {
  phase: ModelPhase;
  /** The badge text: our words for known phases, the service's own word otherwise. */
  label: string;
  tone: 'neutral' | 'accent' | 'success' | 'warning' | 'danger';
}

const FAILED_STATUS = /fail|error|cancel|abort|reject/i;
/** The spec: training usually takes 20–25 minutes; the watcher calls it slow after this. */
export const USUAL_TRAINING_MINUTES = { min: 20, max: 25 } as const;
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
  elapsedMinutes: number;
  /** Against the usual maximum, held below 1 until the service says ready. */
  fraction: number;
  slow: boolean;
  text: string;
}

export function trainingProgress(
  info: Pick<TrainingInfo, 'startedAt' | 'usualMinutes' | 'slowAfterMinutes'>,
  now: number,
): TrainingProgressView | null {
  if (info.startedAt === null) return null;
  const elapsedMinutes = Math.max(0, Math.floor((now - info.startedAt) / MINUTE));
  const { min, max } = info.usualMinutes;
  const slow = elapsedMinutes >= info.slowAfterMinutes;
  // A sliver from the start, so the bar reads as begun; never full before the service says ready.
  const fraction = Math.min(0.97, Math.max(0.02, elapsedMinutes / max));
  const text = slow
    ? `${elapsedMinutes} min — taking longer than usual (usually ${min}–${max} min)`
    : `${elapsedMinutes} min of the usual ${min}–${max} min`;
  return { elapsedMinutes, fraction, slow, text };
}

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

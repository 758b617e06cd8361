// Channels of model training: start it, watch it, and list the trainings (the service gives no job
// id; the model's status is checked every 5 minutes, which is all the spec recommends; the demo's
// faster, with its faster clock).
import * as v from 'valibot';
import { invoke, type } from './channel.ts';

/**
 * idle: no training known; training: running within the usual time; slow: past ~35 minutes,
 * still checked, less often; ready / failed: the end.
 */
export type TrainingStateInfo = 'idle' | 'training' | 'slow' | 'ready' | 'failed';

export interface TrainingInfo {
  modelId: string;
  /** The user's own name for the model, when it has one. */
  modelLabel: string | null;
  state: TrainingStateInfo;
  /** The model's last status from the service. */
  serviceStatus: string | null;
  /** Epoch milliseconds. */
  startedAt: number | null;
  elapsedMs: number | null;
  /**
   * Training usually takes this long on this account (the spec's 20–25 minutes; the demo's,
   * scaled by its emulator's clock): shown next to the elapsed time (contract/training-time.ts).
   */
  usualMs: { min: number; max: number };
  /** After this long the state becomes 'slow'. */
  slowAfterMs: number;
  /** How often the watcher asks the service now (less often once slow). */
  checkEveryMs: number;
  lastCheckedAt: number | null;
  nextCheckAt: number | null;
  /** One sentence for the user about where training stands. */
  message: string;
  error: string | null;
}

const modelId = v.pipe(
  v.string('modelId must be text.'),
  v.trim(),
  v.nonEmpty('modelId is empty.'),
  v.maxLength(200, 'modelId is too long.'),
);

export const trainingInvoke = {
  /** GET /models/{id}/train; a 400 or 429 is explained (photo count, too many trainings). */
  'training:start': invoke(v.strictObject({ modelId }), type<TrainingInfo>()),
  'training:status': invoke(v.strictObject({ modelId }), type<TrainingInfo>()),
  /** Trainings running now and those that ended recently, newest first: the Jobs view's rows. */
  'training:list': invoke(v.undefined(), type<TrainingInfo[]>()),
};

export const trainingEvents = {
  'training:changed': type<TrainingInfo>(),
};

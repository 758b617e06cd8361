// Only a `ready` trained model can generate (spec §3): the one refusal every side words the same way.
import type { FieldProblem } from './common.ts';
import { problem } from './common.ts';
import { isPublicImageModel } from './image-models.ts';
import { isVideoModel } from './video-models.ts';

/** A trained model: any model id that is not one of the public image or video models. */
export const isTrainedModelId = (id: unknown): id is string =>
  typeof id === 'string' && id.trim() !== '' && !isPublicImageModel(id) && !isVideoModel(id);

export const isReadyStatus = (status: string): boolean => status.trim().toLowerCase() === 'ready';

/** The refusal of a trained model that is not ready, or null when it may generate. `name` is what the user calls it. */
export function notReadyProblem(modelID: string, status: string, name: string = modelID): FieldProblem | null {
  if (isReadyStatus(status)) return null;
  const called = name === modelID ? modelID : `${name} (${modelID})`;
  return problem('modelID', `modelID ${called} is ${status || 'not ready'}: only ready models can generate`, {
    detail: { kind: 'notReady', status, name },
    model: modelID,
  });
}

/** The refusal of an id that is no model of this account. */
export function unknownModelProblem(modelID: string): FieldProblem {
  return problem('modelID', `modelID ${modelID} is not one of your models`, {
    detail: { kind: 'unknownModel' },
    model: modelID,
  });
}

// Only a ready trained model can generate: the outbox asks here before sending an image request.
// A cached "ready" is trusted; anything else may be stale (a training finished since, or this
// process never synced), so that one model is asked for first. When the service cannot be asked,
// the request goes on and the service judges it.
import {
  isReadyStatus,
  isTrainedModelId,
  notReadyProblem,
  unknownModelProblem,
  type FieldProblem,
} from '../../contract/rules/index.ts';
import { classifyFailure, errorInfoOf } from '../api/backoff.ts';
import type { TriggerRequest } from '../api/generation-request.ts';
import type { AccountDb } from '../db/account-db.ts';
import { modelFields } from '../api/server-records.ts';
import type { EventBus } from '../events.ts';
import type { EngineTime } from '../host/time.ts';
import { checkModel, type JobsService } from './service-port.ts';

export interface ModelRefusalDeps {
  cache: AccountDb;
  service: JobsService;
  events: EventBus;
  time: EngineTime;
  signal(): AbortSignal;
}

export type ModelRefusal = (request: TriggerRequest) => Promise<FieldProblem | null>;

export function trainedModelRefusal(deps: ModelRefusalDeps): ModelRefusal {
  const { cache, service, events, time } = deps;
  return async (request) => {
    if (request.kind !== 'image') return null;
    const modelID = request.body.modelID;
    if (!isTrainedModelId(modelID)) return null;
    const cached = cache.models.get(modelID);
    if (cached && isReadyStatus(cached.status)) return null;
    let status: string;
    try {
      const model = checkModel(await service.getModel(modelID, deps.signal()), modelID);
      cache.models.upsertFromServer(modelFields(model), time.now());
      status = model.status;
    } catch (error) {
      const info = errorInfoOf(error);
      if (classifyFailure(info) === 'not_found') return unknownModelProblem(modelID);
      return cached ? notReadyProblem(modelID, cached.status, cached.label ?? modelID) : null;
    }
    if (!cached || cached.status !== status) events.emit('models:changed', { reason: 'sync', ids: [modelID] });
    return notReadyProblem(modelID, status, cached?.label ?? modelID);
  };
}

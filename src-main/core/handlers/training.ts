// Handlers of the training:* channels: start training and read the watcher's view (core/jobs).
import type { TrainingInfo } from '../../contract/ipc/training.ts';
import type { AccountServices } from '../account-services.ts';

export function trainingHandlers(host: Pick<AccountServices, 'jobs'>) {
  return {
    'training:start': ({ modelId }: { modelId: string }): Promise<TrainingInfo> => host.jobs().startTraining(modelId),
    'training:status': ({ modelId }: { modelId: string }): TrainingInfo => host.jobs().trainingStatus(modelId),
  };
}

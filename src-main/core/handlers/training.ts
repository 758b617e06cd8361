// Handlers of the training:* channels: start training, read the watcher's view and its list (core/jobs).
import type { TrainingInfo } from '../../contract/ipc/training.ts';
import { readyJobs, type AccountServices } from '../account-services.ts';

export function trainingHandlers(host: AccountServices) {
  return {
    'training:start': async ({ modelId }: { modelId: string }): Promise<TrainingInfo> =>
      (await readyJobs(host)).startTraining(modelId),
    'training:status': async ({ modelId }: { modelId: string }): Promise<TrainingInfo> =>
      (await readyJobs(host)).trainingStatus(modelId),
    'training:list': async (): Promise<TrainingInfo[]> => (await readyJobs(host)).trainings(),
  };
}

// Handlers of the experiments:* channels (contract/ipc/experiments.ts). Not built yet: each answers
// a clear error until the experiment core lands on this branch.
import { AppError } from '../../contract/errors.ts';
import type { ExperimentDetailInfo, ExperimentInfo, ExperimentPlanInfo } from '../../contract/ipc/experiments.ts';

const notBuilt = (): never => {
  throw new AppError({ code: 'unsupported', message: 'Experiments are not built yet.' });
};

export function experimentsHandlers() {
  return {
    'experiments:plan': async (): Promise<ExperimentPlanInfo> => notBuilt(),
    'experiments:start': async (): Promise<ExperimentDetailInfo> => notBuilt(),
    'experiments:list': async (): Promise<ExperimentInfo[]> => notBuilt(),
    'experiments:get': async (): Promise<ExperimentDetailInfo> => notBuilt(),
    'experiments:delete': async (): Promise<{ id: number }> => notBuilt(),
  };
}

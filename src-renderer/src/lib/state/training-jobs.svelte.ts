// This account's trainings as jobs: running now and ended recently, newest first, loaded with
// 'training:list' and patched from every 'training:changed'. The Jobs view lists them
// (components/jobs/TrainingJobs.svelte) and the status bar counts the running ones with the
// running jobs (queue.svelte.ts loads, follows and resets this list with the job list).
import type { TrainingInfo } from '@contract/ipc/training.ts';
import { invoke, on } from '../ipc.ts';

export const isTrainingLive = (info: Pick<TrainingInfo, 'state'>): boolean =>
  info.state === 'training' || info.state === 'slow';

class TrainingJobs {
  items = $state.raw<TrainingInfo[]>([]);
  /** Bumped by reset(): a list asked for before an account switch is dropped when it arrives. */
  #generation = 0;

  readonly running = $derived(this.items.filter(isTrainingLive).length);

  async load(): Promise<void> {
    const generation = this.#generation;
    const result = await invoke('training:list', undefined);
    if (result.ok && generation === this.#generation) this.items = sorted(result.value);
  }

  /** Inserts or replaces one training (by model). */
  upsert(info: TrainingInfo): void {
    if (info.state === 'idle') return void (this.items = this.items.filter((t) => t.modelId !== info.modelId));
    this.items = sorted([info, ...this.items.filter((t) => t.modelId !== info.modelId)]);
  }

  listen(): () => void {
    return on('training:changed', (info) => this.upsert(info));
  }

  /** Forgets everything (another account was opened). */
  reset(): void {
    this.#generation += 1;
    this.items = [];
  }
}

const sorted = (list: TrainingInfo[]): TrainingInfo[] => list.sort((a, b) => (b.startedAt ?? 0) - (a.startedAt ?? 0));

export const trainingJobs = new TrainingJobs();

// The account's models as Create image's picker needs them (id, name, status, usable): a view of
// the one live model list in models.svelte.ts, which follows every models, sync and training event,
// so a model that finishes training is usable in Create the moment the core says so.
import { models } from './models.svelte.ts';

export interface TrainedModelEntry {
  id: string;
  /** The local label, or the id when there is none (the service has no name field). */
  label: string;
  status: string;
  /** Only a ready model can generate. */
  usable: boolean;
}

class TrainedModels {
  readonly items: TrainedModelEntry[] = $derived(
    models.items.map((m) => ({ id: m.id, label: m.displayName, status: m.status, usable: m.usable })),
  );

  find(id: string): TrainedModelEntry | undefined {
    return this.items.find((m) => m.id === id);
  }
}

export const trainedModels = new TrainedModels();

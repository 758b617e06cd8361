// The user's trained models as the Create image picker needs them (id, label, status).
// Filled from the core's model list once that channel exists; until then the list is empty.
import { isModelUsable } from '@contract/service.ts';

export interface TrainedModelEntry {
  id: string;
  /** The local label (the service has no name field); falls back to the id. */
  label: string;
  status: string;
}

class TrainedModels {
  items = $state<TrainedModelEntry[]>([]);
  /** False until the core offers a model list: the picker says so instead of showing nothing. */
  available = $state(false);

  readonly usable = $derived(this.items.filter((m) => isModelUsable(m.status)));

  find(id: string): TrainedModelEntry | undefined {
    return this.items.find((m) => m.id === id);
  }
}

export const trainedModels = new TrainedModels();

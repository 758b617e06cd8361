// The user's trained models as the Create image picker needs them (id, name, status, usable), from
// 'models:list', reloaded on 'models:changed' and after every sync.
import { invoke, on } from '../ipc.ts';

export interface TrainedModelEntry {
  id: string;
  /** The local label, or the id when there is none (the service has no name field). */
  label: string;
  status: string;
  /** Only a ready model can generate. */
  usable: boolean;
}

class TrainedModels {
  items = $state<TrainedModelEntry[]>([]);

  async load(): Promise<void> {
    const result = await invoke('models:list');
    if (!result.ok) return;
    this.items = result.value.map((m) => ({ id: m.id, label: m.displayName, status: m.status, usable: m.usable }));
  }

  listen(): () => void {
    const reload = () => void this.load();
    const stops = [on('models:changed', reload), on('sync:changed', reload)];
    return () => stops.forEach((stop) => stop());
  }

  find(id: string): TrainedModelEntry | undefined {
    return this.items.find((m) => m.id === id);
  }
}

export const trainedModels = new TrainedModels();

// The Models view's list: the account's models from 'models:list' (reloaded on every models, sync or
// training change), the selected one, create / rename / delete, and a toast when a training ends ready.
import { accountBound } from '../account-scope.ts';
import type { ModelInfo } from '@contract/ipc/models.ts';
import { invoke, on } from '../ipc.ts';
import { isProvidedModel, modelPhase, type ModelPhase } from '../models/model-status.ts';
import { toasts } from './toasts.svelte.ts';

const RUNNING: ReadonlySet<ModelPhase> = new Set(['training', 'slow']);

class ModelsState {
  items = $state<ModelInfo[]>([]);
  loaded = $state(false);
  error = $state<string | null>(null);
  selectedId = $state<string | null>(null);
  /** A create, rename or delete is on its way. */
  busy = $state(false);
  /** Renders the training clocks again every so often. */
  now = $state(Date.now());

  readonly selected = $derived(this.items.find((m) => m.id === this.selectedId) ?? null);
  readonly own = $derived(this.items.filter((m) => !isProvidedModel(m)));
  readonly provided = $derived(this.items.filter((m) => isProvidedModel(m)));

  #phases = new Map<string, ModelPhase>();
  #loading: Promise<void> | null = null;
  #again = false;

  constructor() {
    accountBound<ModelsState>(this, () => ({ items: [], loaded: false, error: null, selectedId: null, busy: false }), {
      reset: () => {
        this.#phases.clear();
        this.#loading = null;
        this.#again = false;
      },
      reload: () => this.load(),
    });
  }

  /** Loads the list; a call while one is loading runs once more after it, so no change is missed. */
  load(): Promise<void> {
    if (this.#loading) {
      this.#again = true;
      return this.#loading;
    }
    this.#loading = this.#fetch().finally(() => {
      this.#loading = null;
      if (this.#again) {
        this.#again = false;
        void this.load();
      }
    });
    return this.#loading;
  }

  async #fetch(): Promise<void> {
    const result = await invoke('models:list');
    this.loaded = true;
    if (!result.ok) {
      this.error = result.error.message;
      return;
    }
    this.error = null;
    this.now = Date.now();
    this.#announceReady(result.value);
    this.items = result.value;
    if (this.selectedId && !result.value.some((m) => m.id === this.selectedId)) this.selectedId = null;
  }

  /** A model that was training here and is now ready gets a toast (the core notifies the OS as well). */
  #announceReady(models: ModelInfo[]): void {
    for (const model of models) {
      const phase = modelPhase(model, this.now).phase;
      const before = this.#phases.get(model.id);
      if (before && RUNNING.has(before) && phase === 'ready')
        toasts.info(`${model.displayName} is trained and ready: choose it in Create image.`);
      this.#phases.set(model.id, phase);
    }
  }

  listen(): () => void {
    const reload = () => void this.load();
    const tick = setInterval(() => (this.now = Date.now()), 15_000);
    const stops = [on('models:changed', reload), on('sync:changed', reload), on('training:changed', reload)];
    return () => {
      clearInterval(tick);
      stops.forEach((stop) => stop());
    };
  }

  select(id: string | null): void {
    this.selectedId = id;
  }

  async create(input: { label: string; modelType: string }): Promise<ModelInfo | string> {
    this.busy = true;
    const result = await invoke('models:create', {
      ...(input.modelType.trim() ? { modelType: input.modelType.trim() } : {}),
      ...(input.label.trim() ? { label: input.label.trim() } : {}),
    });
    this.busy = false;
    if (!result.ok) return result.error.message;
    this.#phases.set(result.value.id, modelPhase(result.value, Date.now()).phase);
    this.items = [result.value, ...this.items.filter((m) => m.id !== result.value.id)];
    this.selectedId = result.value.id;
    return result.value;
  }

  async rename(id: string, label: string): Promise<string | null> {
    const result = await invoke('models:rename', { id, label: label.trim() === '' ? null : label });
    if (!result.ok) return result.error.message;
    this.items = this.items.map((m) => (m.id === id ? result.value : m));
    return null;
  }

  /** Deletes on the service; resolves with null or the reason it failed. */
  async remove(id: string): Promise<string | null> {
    this.busy = true;
    const result = await invoke('models:delete', { id });
    this.busy = false;
    if (!result.ok) return result.error.message;
    const name = this.items.find((m) => m.id === id)?.displayName ?? id;
    this.items = this.items.filter((m) => m.id !== id);
    if (this.selectedId === id) this.selectedId = null;
    toasts.info(`Deleted ${name} and its images on the service.`);
    return null;
  }
}

export const models = new ModelsState();

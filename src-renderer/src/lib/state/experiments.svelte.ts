// The Experiments view's state: the account's experiments (newest first) and the one open as a matrix,
// kept live by the core's events (experiments:changed for each start, cell, pause, resume and end;
// assets:changed as outputs land, get their thumbnails or a star). Pause, resume and cancel act on the
// experiment's batch. Everything is read from the account's database, so it works offline.
import { accountBound } from '../account-scope.ts';
import type { AssetRefInfo } from '@contract/ipc/library.ts';
import type { ExperimentDetailInfo, ExperimentInfo } from '@contract/ipc/experiments.ts';
import { invoke, on } from '../ipc.ts';
import { router } from './router.svelte.ts';
import { toasts } from './toasts.svelte.ts';

/** Events that arrive close together are read once, this long after the first. */
const COALESCE_MS = 150;

export type BatchCommand = 'pause' | 'resume' | 'cancel';

class ExperimentsState {
  list = $state.raw<ExperimentInfo[]>([]);
  listLoaded = $state(false);
  listError = $state<string | null>(null);
  /** The experiment shown as a matrix, or null for the list. */
  openId = $state<number | null>(null);
  detail = $state.raw<ExperimentDetailInfo | null>(null);
  detailError = $state<string | null>(null);
  /** A pause, resume or cancel on its way (its button waits for it). */
  commanding = $state<BatchCommand | null>(null);
  #refetch: ReturnType<typeof setTimeout> | undefined;
  #listAgain: ReturnType<typeof setTimeout> | undefined;

  constructor() {
    accountBound<ExperimentsState>(
      this,
      () => ({
        list: [],
        listLoaded: false,
        listError: null,
        openId: null,
        detail: null,
        detailError: null,
        commanding: null,
      }),
      {
        reset: () => {
          clearTimeout(this.#refetch);
          clearTimeout(this.#listAgain);
        },
        reload: () => this.loadList(),
      },
    );
  }

  /** The open experiment's row as the list knows it (newer than the detail between two reads). */
  readonly openInfo = $derived(this.list.find((e) => e.id === this.openId) ?? null);

  async loadList(): Promise<void> {
    const result = await invoke('experiments:list');
    this.listLoaded = true;
    if (!result.ok) {
      this.listError = `The experiments could not be read: ${result.error.message}`;
      return;
    }
    this.listError = null;
    this.list = result.value;
  }

  /** Shows the experiment's matrix (read at once; the list stays as it is). */
  open(id: number): void {
    if (this.openId !== id) {
      this.detail = null;
      this.detailError = null;
    }
    this.openId = id;
    void this.loadDetail();
  }

  /** Back to the list. */
  close(): void {
    clearTimeout(this.#refetch);
    this.openId = null;
    this.detail = null;
    this.detailError = null;
  }

  async loadDetail(): Promise<void> {
    const id = this.openId;
    if (id === null) return;
    const result = await invoke('experiments:get', { id });
    if (this.openId !== id) return;
    if (!result.ok) {
      this.detailError =
        result.error.code === 'not_found'
          ? 'This experiment is no longer here: it was deleted.'
          : `This experiment could not be read: ${result.error.message}`;
      return;
    }
    this.detailError = null;
    this.detail = result.value;
  }

  /** Forgets the experiment (its jobs and pictures stay in Jobs and the Library). */
  async remove(id: number): Promise<boolean> {
    const name = this.list.find((e) => e.id === id)?.name ?? this.detail?.name ?? 'The experiment';
    const result = await invoke('experiments:delete', { id });
    if (!result.ok) {
      toasts.error(`${name} was not deleted: ${result.error.message}`);
      return false;
    }
    this.list = this.list.filter((e) => e.id !== id);
    if (this.openId === id) this.close();
    toasts.info(`Deleted “${name}”. Its pictures stay in the Library.`);
    return true;
  }

  /** Pauses, resumes or cancels the rest of the open experiment (through its batch). */
  async command(command: BatchCommand): Promise<void> {
    const experiment = this.detail;
    if (!experiment || this.commanding) return;
    this.commanding = command;
    try {
      const result = await invoke(`batches:${command}`, { id: experiment.batchId });
      if (!result.ok) {
        const doing = { pause: 'paused', resume: 'resumed', cancel: 'cancelled' }[command];
        toasts.error(`The experiment was not ${doing}: ${result.error.message}`);
        return;
      }
      await this.loadDetail();
      void this.loadList();
    } finally {
      this.commanding = null;
    }
  }

  /** Follows the core's events; returns the unsubscribe (the view calls it while shown). */
  listen(): () => void {
    const stops = [
      on('experiments:changed', (info) => {
        this.#patchList(info);
        if (info.id === this.openId) this.#scheduleDetail();
      }),
      on('assets:changed', ({ assets }) => {
        if (this.detail && (!assets || assets.some((ref) => this.#shows(ref)) || this.#waitsForOutputs()))
          this.#scheduleDetail();
      }),
    ];
    return () => {
      stops.forEach((stop) => stop());
      clearTimeout(this.#refetch);
      clearTimeout(this.#listAgain);
    };
  }

  #patchList(info: ExperimentInfo): void {
    const at = this.list.findIndex((e) => e.id === info.id);
    if (at >= 0) this.list = this.list.with(at, info);
    else {
      // A new one: read the whole list once (it is ordered by the core, newest first).
      clearTimeout(this.#listAgain);
      this.#listAgain = setTimeout(() => void this.loadList(), COALESCE_MS);
    }
  }

  #scheduleDetail(): void {
    if (this.#refetch !== undefined) return;
    this.#refetch = setTimeout(() => {
      this.#refetch = undefined;
      void this.loadDetail();
    }, COALESCE_MS);
  }

  #shows(ref: AssetRefInfo): boolean {
    return !!this.detail?.cells.some((cell) => cell.outputs.some((o) => o.kind === ref.kind && o.id === ref.id));
  }

  /** A cell whose job finished while its outputs are not in the library yet. */
  #waitsForOutputs(): boolean {
    return !!this.detail?.cells.some((cell) => cell.jobState === 'succeeded' && cell.outputs.length === 0);
  }
}

export const experiments = new ExperimentsState();

/** Goes to the Experiments view with this experiment's matrix open (Create calls it after a start). */
export function showExperiment(id: number): void {
  experiments.open(id);
  router.go('experiments');
}

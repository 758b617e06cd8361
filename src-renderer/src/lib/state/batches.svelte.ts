// This account's batches as the Jobs view shows them: listed with batches:list, patched from every
// batches:changed (counts of items and of their jobs), paused, resumed and cancelled through the core;
// a batch's refused rows read with batches:get when the user opens them. The Batch dialog starts
// batches (components/batches/BatchDialog.svelte); what it plans is the core's (contract/batch).
import { accountBound } from '../account-scope.ts';
import type { BatchDetailInfo, BatchInfo } from '@contract/ipc/batches.ts';
import { invoke, on } from '../ipc.ts';
import { withEntries, withMember } from '../library/collections.ts';

type BatchAction = 'batches:pause' | 'batches:resume' | 'batches:cancel';

class BatchesState {
  items = $state.raw<BatchInfo[]>([]);
  loaded = $state(false);
  /** A batch's refused rows and items, once opened (by id). */
  details = $state.raw<ReadonlyMap<number, BatchDetailInfo>>(new Map());
  /** Batches with a pause, resume or cancel under way. */
  acting = $state<ReadonlySet<number>>(new Set());
  /** The last action's refusal, by batch, in the core's words. */
  problems = $state.raw<ReadonlyMap<number, string>>(new Map());

  constructor() {
    // The Jobs view, made again per account, loads the new account's list.
    accountBound<BatchesState>(this, () => ({
      items: [],
      loaded: false,
      details: new Map(),
      acting: new Set(),
      problems: new Map(),
    }));
  }

  async load(): Promise<void> {
    const result = await invoke('batches:list', undefined);
    if (!result.ok) return;
    this.items = result.value;
    this.loaded = true;
  }

  /** Inserts or replaces one batch (newest first). */
  upsert(info: BatchInfo): void {
    const rest = this.items.filter((b) => b.id !== info.id);
    this.items = [info, ...rest].sort((a, b) => b.createdAt - a.createdAt || b.id - a.id);
    if (this.details.has(info.id)) void this.open(info.id);
  }

  listen(): () => void {
    return on('batches:changed', (info) => this.upsert(info));
  }

  /** Reads a batch's items (its refused rows among them). */
  async open(id: number): Promise<void> {
    const result = await invoke('batches:get', { id });
    if (result.ok) this.details = withEntries(this.details, [[id, result.value]]);
  }

  close(id: number): void {
    this.details = withEntries(this.details, [], [id]);
  }

  pause = (id: number) => this.#act('batches:pause', id);
  /** `overBudget`: the user's "Resume past the cap" (the rest goes past the credit caps). */
  resume = (id: number, overBudget = false) => this.#act('batches:resume', id, overBudget);
  cancel = (id: number) => this.#act('batches:cancel', id);

  async #act(channel: BatchAction, id: number, overBudget = false): Promise<boolean> {
    if (this.acting.has(id)) return false;
    this.acting = withMember(this.acting, id, true);
    try {
      const result = await invoke(channel, overBudget ? { id, overBudget } : { id });
      if (result.ok) this.upsert(result.value);
      this.problems = result.ok
        ? withEntries(this.problems, [], [id])
        : withEntries(this.problems, [[id, result.error.message]]);
      return result.ok;
    } finally {
      this.acting = withMember(this.acting, id, false);
    }
  }
}

export const batches = new BatchesState();

// The Atelier trash as the Library shows it: its totals (the sidebar's "Trash · 12 items · 340 MB"),
// whether the Trash place is open, its entries and the selection among them; restore and empty.
// Local copies get here through "Remove local copy" (library-actions.svelte.ts removeLocal).
import { accountBound } from '../account-scope.ts';
import type { AssetRefInfo } from '@contract/ipc/library.ts';
import type { TrashEntryInfo, TrashSummaryInfo } from '@contract/ipc/trash.ts';
import { invoke, on } from '../ipc.ts';
import { formatCount } from '../library/format.ts';
import { toasts } from './toasts.svelte.ts';

const plural = (n: number, one: string, many = `${one}s`) => `${formatCount(n)} ${n === 1 ? one : many}`;
export const keyOfRef = (ref: AssetRefInfo): string => `${ref.kind}:${ref.id}`;

class Trash {
  summary = $state<TrashSummaryInfo>({ count: 0, bytes: 0 });
  /** The Trash place is shown in the Library instead of the grid. */
  open = $state(false);
  entries = $state.raw<TrashEntryInfo[]>([]);
  loaded = $state(false);
  /** Entries chosen for Restore, by kind:id. */
  chosen = $state.raw<ReadonlySet<string>>(new Set());
  busy = $state<'restore' | 'empty' | null>(null);

  constructor() {
    accountBound<Trash>(
      this,
      () => ({
        summary: { count: 0, bytes: 0 },
        open: false,
        entries: [],
        loaded: false,
        chosen: new Set(),
        busy: null,
      }),
      { reload: () => this.loadSummary() },
    );
  }

  async loadSummary(): Promise<void> {
    const result = await invoke('trash:summary');
    if (result.ok) this.summary = result.value;
  }

  async load(): Promise<void> {
    const result = await invoke('trash:list');
    if (!result.ok) {
      toasts.error(result.error.message);
      return;
    }
    const { entries, count, bytes } = result.value;
    this.entries = entries;
    this.summary = { count, bytes };
    this.loaded = true;
    const present = new Set(entries.map((e) => keyOfRef(e.asset)));
    this.chosen = new Set([...this.chosen].filter((key) => present.has(key)));
  }

  /** Follows the core: totals always, the list while the place is open. */
  listen(): () => void {
    return on('trash:changed', (summary) => {
      this.summary = summary;
      if (this.open) void this.load();
    });
  }

  show(): void {
    this.open = true;
    this.chosen = new Set();
    void this.load();
  }

  close(): void {
    this.open = false;
    this.chosen = new Set();
  }

  toggle(ref: AssetRefInfo, on: boolean): void {
    const key = keyOfRef(ref);
    this.chosen = new Set(on ? [...this.chosen, key] : [...this.chosen].filter((k) => k !== key));
  }

  chooseAll(on: boolean): void {
    this.chosen = on ? new Set(this.entries.map((e) => keyOfRef(e.asset))) : new Set();
  }

  chosenRefs(): AssetRefInfo[] {
    return this.entries
      .filter((e) => this.chosen.has(keyOfRef(e.asset)))
      .map((e) => ({ kind: e.asset.kind, id: e.asset.id }));
  }

  /** Puts copies back in the library (downloaded again); says what happened. */
  async restore(refs: AssetRefInfo[]): Promise<boolean> {
    if (refs.length === 0 || this.busy) return false;
    this.busy = 'restore';
    try {
      const result = await invoke('trash:restore', { assets: refs });
      if (!result.ok) {
        toasts.error(result.error.message);
        return false;
      }
      const { restored, alreadyLocal, failed } = result.value;
      const back = restored.length + alreadyLocal.length;
      const lead = back > 0 ? `Restored ${plural(back, 'local copy', 'local copies')}.` : '';
      if (failed.length > 0) {
        const reasons = [...new Set(failed.map((f) => f.reason))].slice(0, 2).join(' ');
        toasts.show('warning', `${lead} Not restored: ${formatCount(failed.length)}. ${reasons}`.trim());
      } else {
        toasts.info(lead);
      }
      this.chosen = new Set();
      if (this.open) await this.load();
      return back > 0;
    } finally {
      this.busy = null;
    }
  }

  /** Deletes trashed copies for good: these, or all of them. */
  async empty(refs?: AssetRefInfo[]): Promise<boolean> {
    if (this.busy) return false;
    this.busy = 'empty';
    try {
      const result = await invoke('trash:empty', refs ? { assets: refs } : undefined);
      if (!result.ok) {
        toasts.error(result.error.message);
        return false;
      }
      toasts.info(`Deleted ${plural(result.value.removed, 'copy', 'copies')} for good.`);
      this.chosen = new Set();
      if (this.open) await this.load();
      return true;
    } finally {
      this.busy = null;
    }
  }
}

export const trash = new Trash();

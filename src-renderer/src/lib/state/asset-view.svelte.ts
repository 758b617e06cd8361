// The asset view (lightbox): which asset is shown, stepping through the list it was opened from,
// its lineage (the image an upscale came from, the upscale made of it), and live updates.
import { accountScope } from '../account-scope.ts';
import type { AssetInfo } from '@contract/ipc/assets.ts';
import type { AssetRefInfo } from '@contract/ipc/library.ts';
import type { OpenAssetInfo } from '@contract/ipc/shell.ts';
import { invoke, on } from '../ipc.ts';
import { library } from './library/list.svelte.ts';
import { jobList } from './job-list.svelte.ts';
import { router } from './router.svelte.ts';
import { toasts } from './toasts.svelte.ts';

/** A list the view steps through: the Library's grid, or a job's outputs. */
export interface AssetSequence {
  /** Known slots (may grow as pages load). */
  readonly length: number;
  at(index: number): AssetInfo | undefined;
  /** Makes `at(index)` answer when it can (loads pages). */
  ensure(index: number): Promise<void>;
}

export const librarySequence: AssetSequence = {
  get length() {
    return library.slots;
  },
  at: (index) => library.at(index),
  ensure: (index) => library.ensureLoaded(index),
};

export const fixedSequence = (assets: AssetInfo[]): AssetSequence => ({
  length: assets.length,
  at: (index) => assets[index],
  ensure: () => Promise.resolve(),
});

const DETAILS_KEY = 'atelier.viewer.details';
function readDetailsOpen(): boolean {
  try {
    return globalThis.localStorage?.getItem(DETAILS_KEY) !== '0';
  } catch {
    return true;
  }
}

const sameAsset = (a: AssetRefInfo | null, b: AssetRefInfo): boolean => a?.kind === b.kind && a.id === b.id;

class AssetViewState {
  asset = $state.raw<AssetInfo | null>(null);
  index = $state(0);
  /** Lineage: the image an upscale was made from, and the upscale made of this image. */
  source = $state.raw<AssetInfo | null>(null);
  upscaled = $state.raw<AssetInfo | null>(null);
  /** The lineage above has been read for the shown asset (until then, null says nothing). */
  lineageKnown = $state(false);
  #sequence = $state.raw<AssetSequence | null>(null);
  #stepping = false;
  /** The details panel beside the picture; remembered across openings. */
  detailsOpen = $state(readDetailsOpen());

  constructor() {
    accountScope.bind({ reset: () => this.close() });
  }

  readonly isOpen = $derived(this.asset !== null);
  readonly total = $derived(this.#sequence?.length ?? 0);
  readonly hasPrevious = $derived(this.index > 0);
  readonly hasNext = $derived(this.index < this.total - 1);

  async show(sequence: AssetSequence, index: number): Promise<void> {
    await sequence.ensure(index);
    const asset = sequence.at(index);
    if (!asset) return;
    this.#sequence = sequence;
    this.#set(asset, index);
  }

  /** Opens one asset by reference (a job's output, a notification), stepping through `others` when given. */
  async showRef(ref: AssetRefInfo, others?: AssetInfo[]): Promise<void> {
    const result = await invoke('assets:get', ref);
    if (!result.ok) {
      toasts.error(result.error.code === 'not_found' ? 'That item is not in the library (yet).' : result.error.message);
      return;
    }
    const list = others && others.some((a) => sameAsset(a, ref)) ? others : [result.value];
    const index = list.findIndex((a) => sameAsset(a, ref));
    const fresh = list.map((a, i) => (i === index ? result.value : a));
    await this.show(fixedSequence(fresh), index);
  }

  /** Opens one of a job's outputs (a Create panel's result), stepping through the job's others. */
  async showOutput(outputs: readonly AssetRefInfo[], index: number): Promise<void> {
    const target = outputs[index];
    if (!target) return;
    const results = await Promise.all(outputs.map((o) => invoke('assets:get', { kind: o.kind, id: o.id })));
    const assets = results.flatMap((result) => (result.ok ? [result.value] : []));
    const at = assets.findIndex((asset) => sameAsset(asset, target));
    if (at < 0) {
      toasts.error('That item is not in the library (yet).');
      return;
    }
    await this.show(fixedSequence(assets), at);
  }

  async step(delta: 1 | -1): Promise<void> {
    await this.go(this.index + delta);
  }

  /** Shows the item at `next` of the list the view was opened from (the filmstrip's clicks). */
  async go(next: number): Promise<void> {
    const sequence = this.#sequence;
    if (!sequence || next < 0 || next >= sequence.length || next === this.index || this.#stepping) return;
    this.#stepping = true;
    try {
      await sequence.ensure(next);
      const asset = sequence.at(next);
      if (asset && this.#sequence === sequence) this.#set(asset, next);
    } finally {
      this.#stepping = false;
    }
  }

  /** The loaded neighbours of the shown item, `radius` each side, for the filmstrip. */
  around(radius: number): { index: number; asset: AssetInfo }[] {
    const sequence = this.#sequence;
    if (!sequence || !this.asset) return [];
    const out: { index: number; asset: AssetInfo }[] = [];
    const last = Math.min(sequence.length - 1, this.index + radius);
    for (let i = Math.max(0, this.index - radius); i <= last; i += 1) {
      const asset = i === this.index ? this.asset : sequence.at(i);
      if (asset) out.push({ index: i, asset });
    }
    return out;
  }

  toggleDetails(): void {
    this.detailsOpen = !this.detailsOpen;
    try {
      localStorage.setItem(DETAILS_KEY, this.detailsOpen ? '1' : '0');
    } catch {
      // Storage refused (private mode): the choice lasts for the session.
    }
  }

  close(): void {
    this.asset = null;
    this.source = null;
    this.upscaled = null;
    this.lineageKnown = false;
    this.#sequence = null;
  }

  /**
   * Shows the list's copy at once, then the core's current one: a list opened earlier (a job's
   * outputs) may hold an asset as it was before a delete or a download.
   */
  #set(asset: AssetInfo, index: number): void {
    this.asset = asset;
    this.index = index;
    void this.#loadLineage(asset);
    void this.#refresh();
  }

  /** `keepShown`: the same asset read again; what is shown stays until the new answer (no flicker). */
  async #loadLineage(asset: AssetInfo, { keepShown = false } = {}): Promise<void> {
    if (!keepShown) {
      this.source = null;
      this.upscaled = null;
      this.lineageKnown = false;
    }
    const [source, upscaled] = await Promise.all([
      asset.sourceAssetId ? invoke('assets:get', { kind: 'image', id: asset.sourceAssetId }) : null,
      asset.upscaledImageId ? invoke('assets:get', { kind: 'image', id: asset.upscaledImageId }) : null,
    ]);
    if (!sameAsset(this.asset, asset)) return;
    this.source = source?.ok ? source.value : null;
    this.upscaled = upscaled?.ok ? upscaled.value : null;
    this.lineageKnown = true;
  }

  /** Keeps the shown asset current (a download finished, its local copy was removed…). */
  async #refresh(): Promise<void> {
    const shown = this.asset;
    if (!shown) return;
    const result = await invoke('assets:get', { kind: shown.kind, id: shown.id });
    if (!sameAsset(this.asset, shown)) return;
    if (result.ok) {
      this.asset = result.value;
      // A finished upscale links its source to it now: the lineage is read again, not kept from before.
      void this.#loadLineage(result.value, { keepShown: true });
    } else if (result.error.code === 'not_found') {
      toasts.info('That item was deleted.');
      this.close();
    }
  }

  /**
   * A notification was clicked: show its asset in the Library (the event names no kind, so both are
   * tried), or for a job without one, its first output or the Jobs view.
   */
  async openFromShell(request: OpenAssetInfo): Promise<void> {
    let ref: AssetRefInfo | null = null;
    if (request.assetId) {
      for (const kind of ['image', 'video'] as const) {
        const found = await invoke('assets:get', { kind, id: request.assetId });
        if (found.ok) {
          ref = { kind, id: request.assetId };
          break;
        }
      }
    } else if (request.jobId) {
      const job = jobList.items.find((j) => j.jobId === request.jobId);
      const output = job?.outputs[0];
      if (output) ref = { kind: output.kind, id: output.id };
    }
    if (!ref) {
      router.go(request.jobId ? 'jobs' : 'library');
      return;
    }
    if (router.view !== 'library' && router.view !== 'jobs') router.go('library');
    await this.showRef(ref);
  }

  /** App-wide: notification clicks open their asset from any view. */
  listenForOpenRequests(): () => void {
    return on('shell:open-asset', (request) => void this.openFromShell(request));
  }

  listen(): () => void {
    return on('assets:changed', (change) => {
      const shown = this.asset;
      if (!shown) return;
      if (!change.assets || change.assets.some((ref) => sameAsset(shown, ref))) void this.#refresh();
      else {
        // Its source or its upscale changed (downloaded, its thumbnail made): the lineage is read again.
        const lineage = [shown.sourceAssetId, shown.upscaledImageId].filter((id) => id !== null);
        if (change.assets.some((ref) => ref.kind === 'image' && lineage.includes(ref.id)))
          void this.#loadLineage(shown, { keepShown: true });
      }
    });
  }
}

export const assetView = new AssetViewState();

// Which Library assets are selected: click, shift-click (range from the anchor), Ctrl/Cmd-click
// (toggle), select all, clear. Keys survive reloads, so a selection outlives a filter change.
import { accountScope } from '../account-scope.ts';
import type { AssetFilter, AssetInfo } from '@contract/ipc/assets.ts';
import type { AssetRefInfo } from '@contract/ipc/library.ts';
import { assetKey, refOfKey, type AssetKey } from '../library/asset-key.ts';
import { withMember } from '../library/collections.ts';
import { invoke } from '../ipc.ts';

export interface ClickModifiers {
  /** Shift: extend from the anchor. */
  range: boolean;
  /** Ctrl (Cmd on macOS): toggle one without touching the rest. */
  toggle: boolean;
}

/** Ctrl on Windows/Linux, Cmd on macOS. */
export const isToggleModifier = (event: { ctrlKey: boolean; metaKey: boolean }): boolean =>
  navigator.platform.toLowerCase().startsWith('mac') ? event.metaKey : event.ctrlKey || event.metaKey;

class LibrarySelection {
  keys = $state.raw<ReadonlySet<AssetKey>>(new Set());
  /** Where a shift-click range starts: the last plain or toggling click. */
  anchor = $state<number | null>(null);

  readonly size = $derived(this.keys.size);
  /** Of the selection, the keys the current filters show (null until checked). */
  shown = $state.raw<ReadonlySet<AssetKey> | null>(null);
  #check = 0;
  /** The assets as they were when selected (a selection outlives the page that showed them). */
  #known = new Map<AssetKey, AssetInfo>();

  constructor() {
    accountScope.bind({
      reset: () => {
        this.clear();
        this.#known.clear();
        this.#check += 1;
      },
    });
  }

  known(key: AssetKey): AssetInfo | undefined {
    return this.#known.get(key);
  }

  #remember(assets: readonly AssetInfo[]): void {
    for (const asset of assets) this.#known.set(assetKey(asset), asset);
    if (this.#known.size > 20_000) {
      for (const key of this.#known.keys()) if (!this.keys.has(key)) this.#known.delete(key);
    }
  }

  /** Asks the core which selected assets the filter shows (a selection may reach beyond the loaded pages). */
  async checkShown(filter: AssetFilter): Promise<void> {
    const check = ++this.#check;
    const keys = this.keys;
    if (keys.size === 0) {
      this.shown = null;
      return;
    }
    const result = await invoke('assets:matching', { filter, assets: [...keys].slice(0, 5000).map(refOfKey) });
    if (check !== this.#check || keys !== this.keys) return;
    this.shown = result.ok ? new Set(result.value.map(assetKey)) : null;
  }

  /** Lets go of what the filters hide. */
  dropHidden(): void {
    const shown = this.shown;
    if (!shown) return;
    this.keys = new Set([...this.keys].filter((key) => shown.has(key)));
  }

  has(asset: AssetRefInfo): boolean {
    return this.keys.has(assetKey(asset));
  }

  /**
   * Applies a click on `asset`, at `index` of the list. A shift-click's range is the caller's to gather
   * (it may reach over pages not held): see `selectRange`.
   */
  click(asset: AssetInfo, index: number, modifiers: Omit<ClickModifiers, 'range'>): void {
    const key = assetKey(asset);
    this.#remember([asset]);
    if (modifiers.toggle) {
      this.keys = withMember(this.keys, key, !this.keys.has(key));
    } else {
      this.keys = new Set([key]);
    }
    this.anchor = index;
  }

  /** A shift-click: the items from the anchor to the click; with Ctrl/Cmd too, added to the selection. */
  selectRange(items: readonly AssetInfo[], add: boolean): void {
    this.#remember(items);
    const range = items.map(assetKey);
    this.keys = new Set(add ? [...this.keys, ...range] : range);
  }

  selectAll(items: readonly AssetInfo[]): void {
    this.#remember(items);
    this.keys = new Set(items.map(assetKey));
  }

  /** Drops keys no longer in the list (after a delete). */
  keepOnly(items: readonly AssetInfo[]): void {
    const present = new Set(items.map(assetKey));
    const kept = [...this.keys].filter((key) => present.has(key));
    if (kept.length !== this.keys.size) this.keys = new Set(kept);
  }

  /** Selects exactly these (a right-click on an item outside the selection). */
  only(asset: AssetInfo, index: number | null): void {
    this.#remember([asset]);
    this.keys = new Set([assetKey(asset)]);
    this.anchor = index;
  }

  clear(): void {
    this.keys = new Set();
    this.anchor = null;
    this.shown = null;
  }

  refs(): AssetRefInfo[] {
    return [...this.keys].map(refOfKey);
  }
}

export const selection = new LibrarySelection();

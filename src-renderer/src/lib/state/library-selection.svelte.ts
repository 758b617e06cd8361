// Which Library assets are selected: click, shift-click (range from the anchor), Ctrl/Cmd-click
// (toggle), select all, clear. Keys survive reloads, so a selection outlives a filter change.
import type { AssetInfo } from '@contract/ipc/assets.ts';
import type { AssetRefInfo } from '@contract/ipc/library.ts';
import { assetKey, refOfKey, type AssetKey } from '../library/asset-key.ts';
import { withMember } from '../library/collections.ts';

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

  has(asset: AssetRefInfo): boolean {
    return this.keys.has(assetKey(asset));
  }

  /** Applies a click on the asset at `index` of `items`. */
  click(items: readonly AssetInfo[], index: number, modifiers: ClickModifiers): void {
    const asset = items[index];
    if (!asset) return;
    const key = assetKey(asset);
    if (modifiers.range && this.anchor !== null) {
      const [from, to] = this.anchor <= index ? [this.anchor, index] : [index, this.anchor];
      const range = items.slice(from, to + 1).map(assetKey);
      this.keys = new Set(modifiers.toggle ? [...this.keys, ...range] : range);
      return;
    }
    if (modifiers.toggle) {
      this.keys = withMember(this.keys, key, !this.keys.has(key));
    } else {
      this.keys = new Set([key]);
    }
    this.anchor = index;
  }

  selectAll(items: readonly AssetInfo[]): void {
    this.keys = new Set(items.map(assetKey));
  }

  /** Drops keys no longer in the list (after a delete). */
  keepOnly(items: readonly AssetInfo[]): void {
    const present = new Set(items.map(assetKey));
    const kept = [...this.keys].filter((key) => present.has(key));
    if (kept.length !== this.keys.size) this.keys = new Set(kept);
  }

  clear(): void {
    this.keys = new Set();
    this.anchor = null;
  }

  refs(): AssetRefInfo[] {
    return [...this.keys].map(refOfKey);
  }
}

export const selection = new LibrarySelection();

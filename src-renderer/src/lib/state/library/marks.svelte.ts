// The user's marks (0–5 stars, pick/reject) as the renderer shows them, and the one way to set them:
// `mark(assets, change)`. A change shows at once (before the core answers), is confirmed by the
// core's answer (which also says what each asset had before) and can be undone by sending those
// previous marks back. The Library grid, the viewer, compare and the culling view all mark through
// this module, so what one shows the others show.
import type { AssetFlagInfo, AssetMarkInfo, AssetMarksInfo, MarkChangeInfo } from '@contract/ipc/marks.ts';
import type { AssetRefInfo } from '@contract/ipc/library.ts';
import { accountBound } from '../../account-scope.ts';
import { invoke } from '../../ipc.ts';
import { assetKey, refOf, type AssetKey } from '../../library/asset-key.ts';
import { withEntries } from '../../library/collections.ts';
import { describeMarkChange, groupByMarks, markChangeOfKey } from '../../library/mark-keys.ts';
import { toasts } from '../toasts.svelte.ts';

/** An asset as the marks module reads it: its ref and, when known, its marks as loaded. */
export type MarkableAsset = AssetRefInfo & Partial<AssetMarksInfo>;

export interface MarkOutcome {
  /** Each asset's marks before the change, in the order given. */
  previous: AssetMarkInfo[];
  /** Sets the previous marks again; resolves false when the core refused. */
  undo(): Promise<boolean>;
}

export interface MarkOptions {
  /** Show (and announce) the change's words: on by default. */
  announce?: boolean;
}

const UNMARKED: AssetMarksInfo = { rating: 0, flag: null };
const NONE: ReadonlyMap<AssetKey, AssetMarksInfo> = withEntries<AssetKey, AssetMarksInfo>(new Map(), []);

export class AssetMarks {
  /** Marks set here (shown at once, then confirmed by the core), over what the assets were loaded with. */
  #known = $state.raw<ReadonlyMap<AssetKey, AssetMarksInfo>>(NONE);

  constructor() {
    accountBound<AssetMarks>(this, () => ({}), { reset: () => (this.#known = NONE) });
  }

  /** An asset's marks as shown: what was set here wins over the asset's loaded values. */
  marksOf(asset: MarkableAsset): AssetMarksInfo {
    return (
      this.#known.get(assetKey(asset)) ?? {
        rating: asset.rating ?? UNMARKED.rating,
        flag: asset.flag ?? UNMARKED.flag,
      }
    );
  }

  ratingOf(asset: MarkableAsset): number {
    return this.marksOf(asset).rating;
  }

  flagOf(asset: MarkableAsset): AssetFlagInfo | null {
    return this.marksOf(asset).flag;
  }

  #remember(entries: readonly (readonly [AssetKey, AssetMarksInfo])[]): void {
    this.#known = withEntries(this.#known, entries);
  }

  /**
   * Sets a rating and/or a flag on these assets (an absent field is left as each has it). Shows the
   * change at once and says it in a polite toast ("Rated 4 stars"); on a refusal everything shown
   * goes back and the reason is shown. Returns the previous marks and their undo, or null when refused.
   */
  async mark(
    assets: readonly MarkableAsset[],
    change: MarkChangeInfo,
    options: MarkOptions = {},
  ): Promise<MarkOutcome | null> {
    if (assets.length === 0 || (change.rating === undefined && change.flag === undefined)) return null;
    const shownBefore = assets.map((asset) => [assetKey(asset), this.marksOf(asset)] as const);
    this.#remember(
      shownBefore.map(([key, marks]) => [
        key,
        {
          rating: change.rating ?? marks.rating,
          flag: change.flag === undefined ? marks.flag : change.flag,
        },
      ]),
    );
    const result = await invoke('assets:mark', {
      assets: assets.map(refOf),
      ...(change.rating !== undefined ? { rating: change.rating } : {}),
      ...(change.flag !== undefined ? { flag: change.flag } : {}),
    });
    if (!result.ok) {
      this.#remember(shownBefore);
      toasts.error(result.error.message);
      return null;
    }
    this.#remember(result.value.marks.map((mark) => [assetKey(mark), { rating: mark.rating, flag: mark.flag }]));
    if (options.announce !== false) toasts.info(describeMarkChange(change, assets.length));
    const previous = result.value.previous;
    return { previous, undo: () => this.restore(previous) };
  }

  /**
   * A marking key (1–5, 0, P, X, U; library/mark-keys.ts) pressed on `targets` (asked only for a
   * marking key): marks them and takes the key. Returns whether it did.
   */
  byKey(event: KeyboardEvent, targets: () => readonly MarkableAsset[]): boolean {
    const change = event.defaultPrevented ? null : markChangeOfKey(event);
    const assets = change ? targets() : [];
    if (!change || assets.length === 0) return false;
    event.preventDefault();
    void this.mark(assets, change);
    return true;
  }

  /** Sets each asset's marks back to the given ones (an undo); true when all were set. */
  async restore(marks: readonly AssetMarkInfo[]): Promise<boolean> {
    let done = true;
    for (const group of groupByMarks(marks)) {
      const outcome = await this.mark(group.assets, group.change, { announce: false });
      if (!outcome) done = false;
    }
    return done;
  }
}

export const marks = new AssetMarks();

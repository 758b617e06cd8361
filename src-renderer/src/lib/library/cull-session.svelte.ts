// One cull: a fixed set of assets gone through one at a time (or a few side by side), each rated and
// flagged by key. Marks show at once and are sent in the order pressed; each press is one step that
// Undo takes back (the previous marks sent again, and the view goes back to that item). With
// auto-advance on, a flag moves on to the next item. Kept apart from the IPC (state/cull.svelte.ts
// gives it the channel), so its logic is tested as it runs.
import type { AssetInfo } from '@contract/ipc/assets.ts';
import type { AssetRefInfo } from '@contract/ipc/library.ts';
import type { AssetMarksInfo, MarkChangeInfo } from '@contract/ipc/marks.ts';
import { assetKey, refOf, type AssetKey } from './asset-key.ts';
import { withEntries } from './collections.ts';

/** An asset's marks: 0–5 stars (0 = none) and its flag (the contract's, contract/ipc/marks.ts). */
export type CullMarks = AssetMarksInfo;

/** What one key press changes: the rating, the flag, or both (undo sends both). */
export type CullChange = MarkChangeInfo;

/** Sends a change for one asset; the error's words when it could not be made. */
export type CullMarker = (
  ref: AssetRefInfo,
  change: CullChange,
) => Promise<{ ok: true } | { ok: false; message: string }>;

export type CullLayout = 'loupe' | 'survey';

export const SURVEY_SIZES = [2, 3, 4] as const;
export type SurveySize = (typeof SURVEY_SIZES)[number];

/** One press, as Undo needs it: where it was made and what the item had before. */
interface CullStep {
  index: number;
  ref: AssetRefInfo;
  previous: CullMarks;
  next: CullMarks;
}

export interface CullSessionOptions {
  marker: CullMarker;
  /** The marks an asset arrives with. */
  marksOf: (asset: AssetInfo) => CullMarks;
  autoAdvance?: boolean;
  /** Told when a change could not be made (it is taken back on screen). */
  onError?: (message: string) => void;
}

export class CullSession {
  /** The set, in its order (fixed at the start; each item refreshed as the library changes it). */
  items = $state.raw<readonly AssetInfo[]>([]);
  index = $state(0);
  layout = $state<CullLayout>('loupe');
  surveySize = $state<SurveySize>(4);
  autoAdvance = $state(false);
  /** Each item's marks as shown (what was sent, before the answer); replaced whole, never changed in place. */
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  marks = $state.raw<ReadonlyMap<AssetKey, CullMarks>>(new Map());
  #steps = $state.raw<readonly CullStep[]>([]);
  #sending: Promise<unknown> = Promise.resolve();
  #pending = 0;
  #options: CullSessionOptions;

  constructor(items: readonly AssetInfo[], options: CullSessionOptions) {
    this.items = items;
    this.#options = options;
    this.autoAdvance = options.autoAdvance ?? false;
    this.marks = withEntries(
      this.marks,
      items.map((asset) => [assetKey(asset), options.marksOf(asset)] as const),
    );
  }

  readonly total = $derived(this.items.length);
  readonly current = $derived(this.items[this.index] ?? null);
  readonly picks = $derived([...this.marks.values()].filter((m) => m.flag === 'pick').length);
  readonly rejects = $derived([...this.marks.values()].filter((m) => m.flag === 'reject').length);
  /** The rejected items of this cull, in its order. */
  readonly rejected = $derived(this.items.filter((asset) => this.marksFor(asset).flag === 'reject'));
  readonly canUndo = $derived(this.#steps.length > 0);
  /**
   * The items the survey shows: the run of `surveySize` that holds the current one; at the end of the
   * set, the last `surveySize` (a run is never left half empty when there are enough items).
   */
  readonly surveyed = $derived.by(() => {
    const run = Math.floor(this.index / this.surveySize) * this.surveySize;
    const start = Math.max(0, Math.min(run, this.items.length - this.surveySize));
    return this.items.slice(start, start + this.surveySize).map((asset, i) => ({ asset, index: start + i }));
  });

  /** Newer rows of some items (a local copy removed, a thumbnail made): same place, same marks. */
  refresh(fresh: readonly AssetInfo[]): void {
    const newer = (asset: AssetInfo) => fresh.find((f) => f.kind === asset.kind && f.id === asset.id);
    if (!this.items.some((asset) => newer(asset))) return;
    this.items = this.items.map((asset) => newer(asset) ?? asset);
  }

  marksFor(asset: AssetRefInfo): CullMarks {
    return this.marks.get(assetKey(asset)) ?? { rating: 0, flag: null };
  }

  go(index: number): void {
    if (this.items.length === 0) return;
    this.index = Math.max(0, Math.min(this.items.length - 1, index));
  }

  step(delta: number): void {
    this.go(this.index + delta);
  }

  /**
   * Marks the current item (or the one at `at`, from the review); a flag moves on when auto-advance is on
   * and the current item was marked. Every press is one undo step.
   */
  mark(change: CullChange, at = this.index): Promise<void> {
    const asset = this.items[at];
    if (!asset) return Promise.resolve();
    const previous = this.marksFor(asset);
    const next: CullMarks = {
      rating: change.rating ?? previous.rating,
      flag: change.flag === undefined ? previous.flag : change.flag,
    };
    const step: CullStep = { index: at, ref: refOf(asset), previous, next };
    this.#show(step.ref, next);
    this.#steps = [...this.#steps, step];
    if (this.autoAdvance && at === this.index && change.flag !== undefined && this.index < this.items.length - 1)
      this.index += 1;
    return this.#send(step.ref, change, () => {
      // Not made: the item shows what it had, and the press is no step to undo.
      this.#show(step.ref, previous);
      this.#steps = this.#steps.filter((s) => s !== step);
    });
  }

  /** Takes the last step back: its item's previous marks are sent again and shown, and the view goes back to it. */
  undo(): Promise<boolean> {
    const step = this.#steps.at(-1);
    if (!step) return Promise.resolve(false);
    this.#steps = this.#steps.slice(0, -1);
    this.#show(step.ref, step.previous);
    this.go(step.index);
    let undone = true;
    return this.#send(step.ref, step.previous, () => {
      undone = false;
      this.#show(step.ref, step.next);
      this.#steps = [...this.#steps, step];
    }).then(() => undone);
  }

  toggleLayout(): void {
    this.layout = this.layout === 'loupe' ? 'survey' : 'loupe';
  }

  /** Marks changed elsewhere (the grid, another window): shown here too, undo steps kept. */
  noteMarks(ref: AssetRefInfo, marks: CullMarks): void {
    // While presses are on their way, what the core read may be older than the screen: the screen wins.
    if (this.#pending === 0 && this.marks.has(assetKey(ref))) this.#show(ref, marks);
  }

  /** Waits for every change sent so far (a test, or closing). */
  settled(): Promise<void> {
    return this.#sending.then(() => undefined);
  }

  #show(ref: AssetRefInfo, marks: CullMarks): void {
    this.marks = withEntries(this.marks, [[assetKey(ref), marks]]);
  }

  /** Sends in the order pressed: a later press never lands before an earlier one. */
  #send(ref: AssetRefInfo, change: CullChange, undo: () => void): Promise<void> {
    this.#pending += 1;
    const sent = this.#sending
      .then(async () => {
        const result = await this.#options.marker(ref, change);
        if (!result.ok) {
          undo();
          this.#options.onError?.(result.message);
        }
      })
      .finally(() => (this.#pending -= 1));
    this.#sending = sent.catch(() => undefined);
    return sent;
  }
}

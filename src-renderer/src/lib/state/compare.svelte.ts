// Compare: 2–4 assets side by side with one zoom and pan for all, or two as a before/after slider.
// Opened from the Library's selection, or from the viewer for an upscale and its source.
import { accountBound } from '../account-scope.ts';
import type { AssetInfo } from '@contract/ipc/assets.ts';
import { invoke } from '../ipc.ts';
import { toasts } from './toasts.svelte.ts';

export const COMPARE_LIMITS = { min: 2, max: 4 } as const;

export type CompareMode = 'side' | 'slider';

class CompareState {
  items = $state.raw<AssetInfo[]>([]);
  mode = $state<CompareMode>('side');
  /** The side the marking keys act on (CompareMarks): the one last clicked or focused. */
  active = $state(0);

  constructor() {
    accountBound<CompareState>(this, () => ({ items: [], active: 0 }));
  }
  readonly isOpen = $derived(this.items.length >= COMPARE_LIMITS.min);

  /** Why these cannot be compared, or null. */
  refusal(count: number): string | null {
    if (count < COMPARE_LIMITS.min) return `Select at least ${COMPARE_LIMITS.min} items to compare.`;
    if (count > COMPARE_LIMITS.max) return `Compare shows at most ${COMPARE_LIMITS.max} items at once.`;
    return null;
  }

  open(items: AssetInfo[], mode: CompareMode = items.length === 2 ? 'slider' : 'side'): void {
    const refusal = this.refusal(items.length);
    if (refusal) {
      toasts.error(refusal);
      return;
    }
    this.items = items;
    this.mode = items.length === 2 ? mode : 'side';
    this.active = 0;
  }

  /** An upscale beside the image it was made from (before on the left), in one action from the viewer. */
  async openUpscale(asset: AssetInfo): Promise<void> {
    const other = asset.sourceAssetId ?? asset.upscaledImageId;
    if (!other) return;
    const found = await invoke('assets:get', { kind: 'image', id: other });
    if (!found.ok) {
      toasts.error(
        found.error.code === 'not_found' ? 'The other image is not in the library (yet).' : found.error.message,
      );
      return;
    }
    this.open(asset.sourceAssetId ? [found.value, asset] : [asset, found.value], 'slider');
  }

  close(): void {
    this.items = [];
  }
}

export const compare = new CompareState();

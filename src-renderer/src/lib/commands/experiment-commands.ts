// What the Experiments view's buttons do beyond the experiment itself: "Use these settings" loads a
// cell's request into Create exactly (the same path as Remix: the form's loadRequest), and
// "Compare selected" opens the existing compare view over the chosen outputs.
import type { AssetInfo } from '@contract/ipc/assets.ts';
import type { ExperimentCellPlanInfo } from '@contract/ipc/experiments.ts';
import { compare } from '../state/compare.svelte.ts';
import { createImage } from '../state/create-image.svelte.ts';
import { createVideo } from '../state/create-video.svelte.ts';
import { router } from '../state/router.svelte.ts';
import { toasts } from '../state/toasts.svelte.ts';

/** Opens Create (image or video) with the cell's model, prompt, aspect ratio and options. */
export function useCellSettings(cell: Pick<ExperimentCellPlanInfo, 'kind' | 'body'>, label: string): void {
  if (cell.kind === 'video') {
    createVideo.loadRequest(cell.body);
    router.go('create-video');
  } else {
    createImage.loadRequest(cell.body);
    router.go('create-image');
  }
  toasts.info(`Create holds the settings of ${label}.`);
}

/** Why the selection cannot be compared, or null. */
export const compareRefusal = (count: number): string | null => compare.refusal(count);

/** Side by side (results of different models and shapes; the slider stays one click away), in the order chosen. */
export function compareSelected(assets: AssetInfo[]): void {
  compare.open(assets, 'side');
}

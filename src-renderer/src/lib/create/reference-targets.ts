// Where a library item (or a dropped link) may go among a Create form's references, and why not when it
// may not: the same model rules the form already shows (roles taken, counts, the item cap), said before
// anything is added.
import { publicModelName } from '@contract/rules/index.ts';
import { REFERENCE_IMAGE_ROLES, type VideoReferenceRules } from '@contract/rules/video-models.ts';
import type { ReferenceImageRole } from '@contract/service.ts';
import type { DraggedAsset } from '../library/asset-drag.ts';

/** A reference image role, or the (single) role of reference videos. */
export type ReferenceTarget = ReferenceImageRole | 'reference_video';

export const REFERENCE_TARGETS: readonly ReferenceTarget[] = [...REFERENCE_IMAGE_ROLES, 'reference_video'];

export const TARGET_LABELS: Record<ReferenceTarget, string> = {
  first_frame: 'First frame',
  last_frame: 'Last frame',
  reference_image: 'Reference image',
  reference_video: 'Reference video',
};

const PLURAL_LABELS: Record<ReferenceTarget, string> = {
  first_frame: 'first frames',
  last_frame: 'last frames',
  reference_image: 'reference images',
  reference_video: 'reference videos',
};

const lower = (target: ReferenceTarget): string => TARGET_LABELS[target].toLowerCase();

/** What the video form holds now, with its model's rules. */
export interface VideoReferenceState {
  modelID: string;
  rules: VideoReferenceRules;
  referenceImages: readonly { url: string; role: ReferenceImageRole }[];
  referenceVideos: readonly string[];
  elementIDs: readonly string[];
}

/** The targets whose kind fits: images go to an image role, videos to reference video; a bare link to either. */
export const targetTakesKind = (target: ReferenceTarget, kind: DraggedAsset['kind']): boolean =>
  kind === null || (target === 'reference_video') === (kind === 'video');

/** How many the model takes for a target; undefined = the target is not taken at all. Dropped roles count as taken (with a notice). */
export function targetLimit(target: ReferenceTarget, rules: VideoReferenceRules): number | undefined {
  if (target === 'reference_video') return rules.maxReferenceVideos > 0 ? rules.maxReferenceVideos : undefined;
  const max = rules.imageRoles[target];
  if (max !== undefined) return max;
  return rules.droppedImageRoles.includes(target) ? Infinity : undefined;
}

export function targetCount(target: ReferenceTarget, state: VideoReferenceState): number {
  return target === 'reference_video'
    ? state.referenceVideos.length
    : state.referenceImages.filter((r) => r.role === target).length;
}

/** Why `item` cannot be added as `target` for Create video, or null when it can. */
export function videoReferenceRefusal(
  target: ReferenceTarget,
  item: DraggedAsset,
  state: VideoReferenceState,
): string | null {
  if (!item.url) return 'This item has no link on the service to send (it was removed from the service).';
  const limit = targetLimit(target, state.rules);
  if (limit === undefined) return `${publicModelName(state.modelID)} takes no ${PLURAL_LABELS[target]}.`;
  if (item.kind === 'video' && target !== 'reference_video') {
    return `A video cannot be a ${lower(target)}: use an image.`;
  }
  if (item.kind === 'image' && target === 'reference_video')
    return 'An image cannot be a reference video: use a video.';
  const count = targetCount(target, state);
  const already =
    target === 'reference_video'
      ? state.referenceVideos.includes(item.url)
      : state.referenceImages.some((r) => r.url === item.url && r.role === target);
  if (already) return `Already added as ${lower(target)}.`;
  if (count >= limit) {
    const what = limit === 1 ? lower(target) : `${limit} ${PLURAL_LABELS[target]}`;
    return `${publicModelName(state.modelID)} takes ${limit === 1 ? 'one ' : ''}${what}: remove ${limit === 1 ? 'the one there' : 'one'} first.`;
  }
  const cap = state.rules.maxTotalItems;
  const total = state.elementIDs.length + state.referenceImages.length + state.referenceVideos.length;
  if (cap !== undefined && total >= cap) {
    return `${publicModelName(state.modelID)} takes ${cap} elements and references in all: remove one first.`;
  }
  return null;
}

/** Why `item` cannot join Create image's reference URLs (at most `max`), or null when it can. */
export function imageReferenceRefusal(
  item: DraggedAsset,
  state: { modelID: string; max: number; urls: readonly string[] },
): string | null {
  if (!item.url) return 'This item has no link on the service to send (it was removed from the service).';
  if (item.kind === 'video') return 'A video cannot be a reference image: use an image.';
  if (state.urls.includes(item.url)) return 'Already in the reference images.';
  if (state.urls.length >= state.max) {
    return `${publicModelName(state.modelID)} takes up to ${state.max} reference images: remove one first.`;
  }
  return null;
}

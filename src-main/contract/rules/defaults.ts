// Form defaults per model and the family a model id belongs to, derived from the rule tables.
import { tableDefaults } from './common.ts';
import { PUBLIC_IMAGE_FIELDS, TRAINED_IMAGE_FIELDS, publicImageRules, type ImageOptionGroup } from './image-models.ts';
import type { VideoFamily } from './video-models.ts';
import { VIDEO_NUM_VIDEOS, videoRules } from './video-models.ts';

export type ModelFamily = ImageOptionGroup | VideoFamily | 'trained';

/**
 * The family of a model id. Any other non-empty string is a trained model (spec: "an id from GET /models"),
 * so this never answers "unknown" for a string; it answers null only for a missing or empty id.
 */
export function modelFamily(id: string): ModelFamily | null {
  if (typeof id !== 'string' || id.trim() === '') return null;
  return publicImageRules(id)?.family ?? videoRules(id)?.family ?? 'trained';
}

/**
 * Values a form should start from: the spec's defaults, plus a count of 1 (the spec states no default count).
 * Option-group defaults sit under `options.<group>`; a group with no defaults is left out.
 */
export function defaultsFor(modelID: string): Record<string, unknown> {
  const image = publicImageRules(modelID);
  if (image) {
    const out: Record<string, unknown> = tableDefaults(PUBLIC_IMAGE_FIELDS);
    const group = tableDefaults(image.options);
    if (Object.keys(group).length > 0) out['options'] = { [image.optionGroup]: group };
    return out;
  }
  const video = videoRules(modelID);
  if (video) {
    const out: Record<string, unknown> = { numVideos: VIDEO_NUM_VIDEOS.min };
    const group = tableDefaults(video.options);
    if (Object.keys(group).length > 0) out['options'] = { [video.optionGroup]: group };
    return out;
  }
  return tableDefaults(TRAINED_IMAGE_FIELDS);
}

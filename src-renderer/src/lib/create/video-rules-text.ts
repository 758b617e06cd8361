// Each video model's rules in plain words, built from the rule tables so the text cannot drift from the checks.
import {
  DRAFT_MODE_RESOLUTION,
  VIDEOA_REFERENCE_IMAGE_DURATION,
  type VideoModelRules,
} from '@contract/rules/video-models.ts';
import { fieldLabel } from './labels.ts';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export function videoRuleLines(rules: VideoModelRules): string[] {
  const { imageRoles, droppedImageRoles, maxReferenceVideos, acceptsElementIDs, maxTotalItems } = rules.references;
  const lines: string[] = [];
  const frames = [imageRoles.first_frame ? 'a first frame' : null, imageRoles.last_frame ? 'a last frame' : null]
    .filter(Boolean)
    .join(' and ');
  const refs = imageRoles.reference_image;
  const takes = [frames, refs ? `up to ${plural(refs, 'reference image', 'reference images')}` : null]
    .filter(Boolean)
    .join(', ');
  lines.push(takes ? `Takes ${takes}.` : 'Takes no reference images.');
  if (droppedImageRoles.includes('reference_image')) {
    lines.push('Reference images are accepted but ignored by this model: they will not be sent.');
  }
  if (maxReferenceVideos > 0 && maxTotalItems === undefined) {
    lines.push(`Up to ${plural(maxReferenceVideos, 'reference video', 'reference videos')}.`);
  }
  if (acceptsElementIDs) lines.push('Accepts element IDs.');
  if (maxTotalItems !== undefined) {
    lines.push(`At most ${maxTotalItems} items in all: elements, reference images and reference videos together.`);
  }
  if (rules.family === 'videoa') {
    lines.push(`Duration must be ${VIDEOA_REFERENCE_IMAGE_DURATION} s when a reference image is used.`);
  }
  if (rules.options['draftMode']) lines.push(`Draft mode renders at ${DRAFT_MODE_RESOLUTION}.`);
  if (rules.family === 'videoc-video') lines.push('Aspect ratio applies to text-to-video only.');
  // The refusal in the form's words: the fields it names, by their labels.
  const refused = rules.refusedOptions ? Object.keys(rules.refusedOptions) : [];
  if (refused.length > 0) {
    const names = refused.map((name) => fieldLabel(name).toLowerCase());
    lines.push(`Takes no ${names.slice(0, -1).join(', ')}${names.length > 1 ? ' or ' : ''}${names[names.length - 1]}.`);
  }
  return lines;
}

// A video request made fit for another video model: its references kept where the model takes
// them (each role up to its count), its options moved into the model's own group (a ratio is an
// aspect ratio by another name), mapped to the nearest allowed value, or dropped; each change noted.
import type { ReferenceImageRole } from '../service.ts';
import { isRecord } from '../rules/common.ts';
import {
  VIDEO_NUM_VIDEOS,
  VIDEOA_REFERENCE_IMAGE_DURATION,
  videoRules,
  type VideoModelRules,
} from '../rules/video-models.ts';
import type { MappingNotes } from './mapping-notes.ts';
import { fitToSpec, valueFromText, wholeNumberText } from './nearest-value.ts';

type Body = Record<string, unknown>;

const NUM_VIDEOS = { kind: 'int', min: VIDEO_NUM_VIDEOS.min, max: VIDEO_NUM_VIDEOS.max } as const;
const ROLE_WORDS: Record<ReferenceImageRole, string> = {
  first_frame: 'first frame',
  last_frame: 'last frame',
  reference_image: 'reference image',
};

/** The name a model gives a setting: videob calls its aspect ratio `ratio`. */
function ownKey(rules: VideoModelRules, key: string): string {
  const has = (name: string) => Object.hasOwn(rules.options, name);
  if (key === 'ratio' && !has('ratio') && has('aspectRatio')) return 'aspectRatio';
  if (key === 'aspectRatio' && !has('aspectRatio') && has('ratio')) return 'ratio';
  return key;
}

function ownGroup(out: Body, rules: VideoModelRules): Body {
  const options = isRecord(out['options']) ? out['options'] : {};
  const group = isRecord(options[rules.optionGroup]) ? (options[rules.optionGroup] as Body) : {};
  out['options'] = { [rules.optionGroup]: group };
  return group;
}

/** Sets one option of the model's own group, fitted; a setting it does not take is dropped with the reason. */
function setOption(out: Body, rules: VideoModelRules, key: string, value: unknown, field: string, notes: MappingNotes) {
  const name = ownKey(rules, key);
  const spec = Object.hasOwn(rules.options, name) ? rules.options[name] : undefined;
  if (!spec) {
    const refusal = rules.refusedOptions?.[key];
    notes.dropped(field, key, refusal ? `${notes.model} takes none (${refusal})` : undefined);
    return;
  }
  const group = ownGroup(out, rules);
  const fitted = fitToSpec(value, spec);
  if (fitted?.changed) notes.mapped(field, key, value, fitted.value);
  group[name] = fitted ? fitted.value : value;
}

function referenceImages(out: Body, items: unknown, rules: VideoModelRules, notes: MappingNotes): void {
  if (!Array.isArray(items)) return void (out['referenceImages'] = items);
  const counts = new Map<string, number>();
  const kept: unknown[] = [];
  for (const item of items) {
    const role = isRecord(item) ? item['role'] : undefined;
    const max = typeof role === 'string' ? rules.references.imageRoles[role as ReferenceImageRole] : undefined;
    const used = counts.get(String(role)) ?? 0;
    if (max !== undefined && used < max) {
      counts.set(String(role), used + 1);
      kept.push(item);
      continue;
    }
    const words = ROLE_WORDS[role as ReferenceImageRole] ?? 'reference';
    notes.dropped(
      'referenceImages',
      'referenceImages',
      max === undefined
        ? `${notes.model} takes no ${words}`
        : `${notes.model} takes at most ${max} ${words}${max === 1 ? '' : 's'}`,
    );
  }
  if (kept.length > 0) out['referenceImages'] = kept;
}

/** Family A needs 8 s whenever a reference image is given. */
function fitVideoaDuration(out: Body, rules: VideoModelRules, notes: MappingNotes): void {
  if (rules.family !== 'videoa') return;
  const images = out['referenceImages'];
  const withImage = Array.isArray(images) && images.some((i) => isRecord(i) && i['role'] === 'reference_image');
  const group = ownGroup(out, rules);
  if (withImage && group['duration'] !== undefined && group['duration'] !== VIDEOA_REFERENCE_IMAGE_DURATION) {
    notes.mapped(
      `options.${rules.optionGroup}.duration`,
      'duration',
      group['duration'],
      VIDEOA_REFERENCE_IMAGE_DURATION,
      `${notes.model} needs ${VIDEOA_REFERENCE_IMAGE_DURATION} s with a reference image`,
    );
    group['duration'] = VIDEOA_REFERENCE_IMAGE_DURATION;
  }
  if (Object.keys(group).length === 0) delete out['options'];
}

/** `body` made fit for video model `modelID`, each change noted. */
export function videoBodyFor(body: Body, modelID: string, notes: MappingNotes): Body {
  const rules = videoRules(modelID);
  if (!rules) return { ...body, modelID };
  const out: Body = { modelID };
  for (const [key, value] of Object.entries(body)) {
    if (value === undefined || key === 'modelID' || key === 'options') continue;
    if (key === 'prompt') out[key] = value;
    else if (key === 'numVideos') {
      const fitted = fitToSpec(value, NUM_VIDEOS);
      if (fitted?.changed)
        notes.mapped(key, key, value, fitted.value, `${notes.model} makes at most ${NUM_VIDEOS.max}`);
      out[key] = fitted ? fitted.value : value;
    } else if (key === 'referenceImages') referenceImages(out, value, rules, notes);
    else if (key === 'referenceVideos') {
      const max = rules.references.maxReferenceVideos;
      if (max === 0) notes.dropped(key, key, `${notes.model} takes no reference videos`);
      else if (Array.isArray(value) && value.length > max) {
        notes.mapped(key, key, value.length, max, `${notes.model} takes at most ${max}`);
        out[key] = value.slice(0, max);
      } else out[key] = value;
    } else if (key === 'elementIDs') {
      if (rules.references.acceptsElementIDs) out[key] = value;
      else notes.dropped(key, key, `${notes.model} takes no elements`);
    } else notes.dropped(key, key, `${notes.model} has no such setting`);
  }
  const options = body['options'];
  if (isRecord(options)) {
    for (const [group, values] of Object.entries(options)) {
      if (!isRecord(values)) continue;
      for (const [key, value] of Object.entries(values))
        if (value !== undefined) setOption(out, rules, key, value, `options.${group}.${key}`, notes);
    }
  }
  return out;
}

/** What only the whole request can settle, once every axis value is set: family A's 8 s with a reference image. */
export function finishVideoBody(out: Body, notes: MappingNotes): void {
  const rules = videoRules(out['modelID']);
  if (rules) fitVideoaDuration(out, rules, notes);
}

/** One axis value set on a video body already made for its model; what it cannot take is noted. */
export function setVideoAxis(out: Body, kind: string, key: string | null, text: string, notes: MappingNotes): void {
  const rules = videoRules(out['modelID']);
  if (!rules) return;
  const replaced: Readonly<Record<string, readonly string[]>> = {
    prompt: ['prompt'],
    seed: ['seed'],
    numImages: ['numVideos'],
    aspectRatio: ['aspectRatio', 'ratio'],
    option: [key ?? '', ownKey(rules, key ?? '')],
  };
  notes.forget(replaced[kind] ?? []);
  const field = (name: string) => `options.${rules.optionGroup}.${ownKey(rules, name)}`;
  switch (kind) {
    case 'prompt':
      out['prompt'] = text;
      break;
    case 'preset':
      if (text.trim() !== '') notes.dropped('preset', 'preset', 'video models take no preset');
      break;
    case 'seed':
      if (Object.hasOwn(rules.options, 'seed'))
        setOption(out, rules, 'seed', wholeNumberText(text), field('seed'), notes);
      else notes.dropped(field('seed'), 'seed', `${notes.model} takes no seed`);
      break;
    case 'numImages': {
      const value = wholeNumberText(text);
      const fitted = fitToSpec(value, NUM_VIDEOS);
      if (fitted?.changed)
        notes.mapped('numVideos', 'numVideos', value, fitted.value, `${notes.model} makes at most ${NUM_VIDEOS.max}`);
      out['numVideos'] = fitted ? fitted.value : value;
      break;
    }
    case 'aspectRatio':
      if (Object.hasOwn(rules.options, ownKey(rules, 'aspectRatio')))
        setOption(out, rules, 'aspectRatio', text, field('aspectRatio'), notes);
      else notes.dropped(field('aspectRatio'), 'aspectRatio', `${notes.model} takes no aspect ratio`);
      break;
    case 'option': {
      const name = key ?? '';
      const own = ownKey(rules, name);
      const spec = Object.hasOwn(rules.options, own) ? rules.options[own] : undefined;
      setOption(out, rules, name, valueFromText(text, spec), field(name), notes);
      break;
    }
  }
}

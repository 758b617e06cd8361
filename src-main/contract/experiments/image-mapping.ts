// An image request made fit for another image model: a public family's or a trained model's own
// fields (TRAINED_IMAGE_FIELDS). A setting the model takes is kept, mapped to its nearest allowed
// value when it has not that one; a setting it does not take is dropped; each change is a note.
import { has, isRecord } from '../rules/common.ts';
import {
  IMAGE_ASPECT_RATIOS,
  PUBLIC_IMAGE_FIELDS,
  TRAINED_IMAGE_FIELDS,
  publicImageRules,
  type PublicImageModelRules,
} from '../rules/image-models.ts';
import { IMAGEC_PIXEL_BUDGET, explainImagecSize, floorToEdgeMultiple } from '../rules/imagec-size.ts';
import type { MappingNotes } from './mapping-notes.ts';
import { fitToSpec, nearestOf, ratioOf, valueFromText, wholeNumberText } from './nearest-value.ts';
import type { SettingSpec } from '../rules/common.ts';

type Body = Record<string, unknown>;

/** Sets `out[key]` to `value` fitted to `spec`, noting a mapped value. */
function setFitted(out: Body, key: string, field: string, value: unknown, spec: SettingSpec, notes: MappingNotes) {
  const fitted = fitToSpec(value, spec);
  if (fitted?.changed) notes.mapped(field, key, value, fitted.value);
  out[key] = fitted ? fitted.value : value;
}

/** The trained models' size for an aspect ratio: 1024 px on the long edge, the other a multiple of 16. */
function sizeForRatio(ratio: string): { width: number; height: number } | null {
  const r = ratioOf(ratio);
  if (r === null) return null;
  const short = Math.max(256, floorToEdgeMultiple(1024 / Math.exp(Math.abs(r))));
  return r >= 0 ? { width: 1024, height: short } : { width: short, height: 1024 };
}

/** The public aspect ratio nearest a trained request's width × height. */
const ratioForSize = (width: number, height: number): string => nearestOf(`${width}:${height}`, IMAGE_ASPECT_RATIOS);

function publicOptions(out: Body, options: unknown, rules: PublicImageModelRules, notes: MappingNotes): void {
  if (!isRecord(options)) return;
  const settings: Body =
    isRecord(out['options']) && isRecord(out['options'][rules.optionGroup])
      ? (out['options'][rules.optionGroup] as Body)
      : {};
  for (const [group, values] of Object.entries(options)) {
    if (!isRecord(values)) continue;
    for (const [key, value] of Object.entries(values)) {
      if (value === undefined || has(settings, key)) continue;
      const spec = Object.hasOwn(rules.options, key) ? rules.options[key] : undefined;
      if (!spec) notes.dropped(`options.${group}.${key}`, key);
      else setFitted(settings, key, `options.${group}.${key}`, value, spec, notes);
    }
  }
  if (Object.keys(settings).length > 0) out['options'] = { [rules.optionGroup]: settings };
}

/** Image family C makes a size tier at a ratio only within its pixel limits: a tier too large goes down. */
function fitImagecSize(out: Body, rules: PublicImageModelRules, notes: MappingNotes): void {
  if (rules.family !== 'imagec' || !isRecord(out['options'])) return;
  const group = out['options'][rules.optionGroup];
  if (!isRecord(group) || typeof group['imageSize'] !== 'string') return;
  const size = group['imageSize'];
  const ratio = typeof out['aspectRatio'] === 'string' ? out['aspectRatio'] : '1:1';
  if (!Object.hasOwn(IMAGEC_PIXEL_BUDGET, size) || explainImagecSize(size, ratio).ok) return;
  if (!(IMAGE_ASPECT_RATIOS as readonly string[]).includes(ratio)) return;
  const smaller = Object.keys(IMAGEC_PIXEL_BUDGET)
    .filter((tier) => IMAGEC_PIXEL_BUDGET[tier]! < IMAGEC_PIXEL_BUDGET[size]! && explainImagecSize(tier, ratio).ok)
    .sort((a, b) => IMAGEC_PIXEL_BUDGET[b]! - IMAGEC_PIXEL_BUDGET[a]!)[0];
  if (!smaller) return;
  group['imageSize'] = smaller;
  notes.mapped(
    `options.${rules.optionGroup}.imageSize`,
    'imageSize',
    size,
    smaller,
    `${notes.model} cannot make ${size} at ${ratio}`,
  );
}

function forPublic(body: Body, modelID: string, rules: PublicImageModelRules, notes: MappingNotes): Body {
  const out: Body = { modelID };
  const width = body['width'];
  const height = body['height'];
  for (const [key, value] of Object.entries(body)) {
    if (value === undefined || key === 'modelID' || key === 'options') continue;
    if (key === 'prompt' || key === 'preset') out[key] = value;
    else if (key === 'aspectRatio' || key === 'numImages')
      setFitted(out, key, key, value, PUBLIC_IMAGE_FIELDS[key]!, notes);
    else if (key === 'referenceImageURLs') {
      const max = rules.maxReferenceURLs;
      if (Array.isArray(value) && value.length > max) {
        notes.mapped(key, key, value.length, max, `${notes.model} takes at most ${max}`);
        out[key] = value.slice(0, max);
      } else out[key] = value;
    } else if ((key === 'width' || key === 'height') && !has(body, 'aspectRatio')) {
      if (key === 'height' && typeof width === 'number') continue; // said once, with the width
      if (typeof width === 'number' && typeof height === 'number') {
        out['aspectRatio'] = ratioForSize(width, height);
        notes.forced(
          'aspectRatio',
          `size ${width} × ${height} px → aspect ratio ${String(out['aspectRatio'])}: ${notes.model} takes an aspect ratio, not a size`,
        );
      } else notes.dropped(key, key, `${notes.model} takes an aspect ratio, not a size`);
    } else notes.dropped(key, key, `${notes.model} has no such setting`);
  }
  publicOptions(out, body['options'], rules, notes);
  return out;
}

function forTrained(body: Body, modelID: string, notes: MappingNotes): Body {
  const out: Body = { modelID };
  for (const [key, value] of Object.entries(body)) {
    if (value === undefined || key === 'modelID') continue;
    const spec = Object.hasOwn(TRAINED_IMAGE_FIELDS, key) ? TRAINED_IMAGE_FIELDS[key] : undefined;
    if (spec) setFitted(out, key, key, value, spec, notes);
    else if (key === 'aspectRatio' && !has(body, 'width') && !has(body, 'height')) {
      const size = typeof value === 'string' ? sizeForRatio(value) : null;
      if (size) {
        Object.assign(out, size);
        notes.forced(
          'aspectRatio',
          `aspect ratio ${value as string} → ${size.width} × ${size.height} px: ${notes.model} takes a size, not an aspect ratio`,
        );
      } else notes.dropped(key, key, `${notes.model} takes a size, not an aspect ratio`);
    } else if (key === 'options' && isRecord(value)) {
      for (const [group, values] of Object.entries(value))
        if (isRecord(values))
          for (const name of Object.keys(values))
            notes.dropped(`options.${group}.${name}`, name, `${notes.model} has no options`);
    } else if (key === 'aspectRatio') notes.dropped(key, key, `${notes.model} takes a size, not an aspect ratio`);
    else notes.dropped(key, key, `${notes.model} has no such setting`);
  }
  return out;
}

/** The settings of the base an axis replaces: what was said about them no longer holds. */
const AXIS_SETTINGS: Readonly<Record<string, readonly string[]>> = {
  prompt: ['prompt'],
  preset: ['preset'],
  seed: ['seed'],
  numImages: ['numImages'],
  aspectRatio: ['aspectRatio', 'width', 'height'],
};

/** What only the whole request can settle, once every axis value is set: Image C's size at its ratio. */
export function finishImageBody(out: Body, notes: MappingNotes): void {
  const rules = publicImageRules(out['modelID']);
  if (rules) fitImagecSize(out, rules, notes);
}

/** `body` made fit for image model `modelID` (public or trained), each change noted. */
export function imageBodyFor(body: Body, modelID: string, notes: MappingNotes): Body {
  const rules = publicImageRules(modelID);
  return rules ? forPublic(body, modelID, rules, notes) : forTrained(body, modelID, notes);
}

/** One axis value set on an image body already made for its model; what it cannot take is noted. */
export function setImageAxis(out: Body, kind: string, key: string | null, text: string, notes: MappingNotes): void {
  const modelID = typeof out['modelID'] === 'string' ? out['modelID'] : '';
  const rules = publicImageRules(modelID);
  notes.forget(kind === 'option' ? [key ?? ''] : (AXIS_SETTINGS[kind] ?? []));
  switch (kind) {
    case 'prompt':
      out['prompt'] = text;
      return;
    case 'preset':
      if (text.trim() === '') delete out['preset'];
      else out['preset'] = text;
      return;
    case 'seed':
      if (rules) notes.dropped('seed', 'seed', `${notes.model} takes no seed`);
      else setFitted(out, 'seed', 'seed', wholeNumberText(text), TRAINED_IMAGE_FIELDS['seed']!, notes);
      return;
    case 'numImages': {
      const spec = (rules ? PUBLIC_IMAGE_FIELDS : TRAINED_IMAGE_FIELDS)['numImages']!;
      setFitted(out, 'numImages', 'numImages', wholeNumberText(text), spec, notes);
      return;
    }
    case 'aspectRatio':
      if (rules) {
        setFitted(out, 'aspectRatio', 'aspectRatio', text, PUBLIC_IMAGE_FIELDS['aspectRatio']!, notes);
      } else {
        delete out['width'];
        delete out['height'];
        const trained = forTrained({ aspectRatio: text }, modelID, notes);
        Object.assign(out, trained, { modelID });
      }
      return;
    case 'option': {
      const name = key ?? '';
      if (rules) {
        const spec = Object.hasOwn(rules.options, name) ? rules.options[name] : undefined;
        const field = `options.${rules.optionGroup}.${name}`;
        if (!spec) return notes.dropped(field, name);
        const group = isRecord(out['options']) ? out['options'][rules.optionGroup] : undefined;
        const settings: Body = isRecord(group) ? group : {};
        setFitted(settings, name, field, valueFromText(text, spec), spec, notes);
        out['options'] = { [rules.optionGroup]: settings };
      } else {
        const spec = Object.hasOwn(TRAINED_IMAGE_FIELDS, name) ? TRAINED_IMAGE_FIELDS[name] : undefined;
        if (!spec) return notes.dropped(name, name, `${notes.model} has no such setting`);
        setFitted(out, name, name, valueFromText(text, spec), spec, notes);
      }
      return;
    }
  }
}

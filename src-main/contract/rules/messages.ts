// The one message table of the request rules. Every problem keeps its field-path message (the CLI,
// the emulator's 400s, logs); a problem that carries a `detail` can also be said in the words of a
// form — its on-screen labels and model names ("JPEG compression must be 0–100; you entered 150").
// Problems without a detail are reworded by swapping their field paths and model ids for labels.
import type { FieldProblem, SettingSpec } from './common.ts';

export type { ProblemDetail } from './common.ts';

/** What a form calls things: its labels for field paths and the names of models and values. */
export interface FormWords {
  /** 'options.imagec.outputCompression' → 'JPEG compression'; 'referenceImageURLs[1]' → 'Reference image 2'. */
  label(path: string): string;
  model(id: string): string;
  /** How a value of a field is shown on screen ('BLOCK_ONLY_HIGH' → 'Block only high'). */
  value?(field: string, value: string | number): string;
}

const lastName = (path: string): string =>
  path
    .replace(/\[\d+\]/g, '')
    .split('.')
    .pop() ?? path;

function shownValue(given: unknown): string {
  if (given === undefined || given === null || given === '') return 'nothing';
  if (typeof given === 'number') return Number.isFinite(given) ? String(given) : 'something that is not a number';
  if (typeof given === 'string') return `“${given.length > 40 ? `${given.slice(0, 40)}…` : given}”`;
  if (typeof given === 'boolean') return given ? 'on' : 'off';
  return 'something else';
}

function allowed(spec: SettingSpec, field: string, words: FormWords): string {
  const say = (v: string | number) => words.value?.(field, v) ?? String(v);
  switch (spec.kind) {
    case 'enum':
    case 'intEnum':
      return `one of ${spec.values.map(say).join(', ')}`;
    case 'int': {
      const extra = spec.also && spec.also.length > 0 ? `${spec.also.map(say).join(', ')} or ` : '';
      return `${extra}a whole number ${spec.min}–${spec.max}`;
    }
    case 'number':
      return `${spec.min}–${spec.max}`;
    case 'boolean':
      return 'on or off';
    case 'string':
      return 'filled in';
  }
}

/** The model id a problem is about, in its own words: every known id in the text becomes its name. */
const MODEL_ID = /\b(?:image[abc]|video[abcd])(?:-[a-z0-9_]+(?:\.[0-9]+)?)*\b/g;
/** Field paths inside messages: dotted option paths, indexed list paths, and the request's camelCase keys. */
const FIELD_PATH =
  /\b(?:options\.[a-z]+(?:\.[A-Za-z]+)?|[a-z][A-Za-z]*\[\d+\](?:\.[a-z]+)?|modelID|numImages|numVideos|aspectRatio|referenceImageURLs|referenceImages|referenceVideos|elementIDs|inputImageId|imageSize|outputFormat|outputCompression|sequentialMode|optimizeMode|safetyFilterLevel|draftMode|styleStrength|enhanceFace|runType|imageID)\b/g;

/** The generic rewording: field paths become labels, model ids names, "you gave" "you entered". */
function reword(message: string, words: FormWords): string {
  const text = message
    .replace(FIELD_PATH, (path) => words.label(path))
    .replace(MODEL_ID, (id) => words.model(id))
    .replace(/\b(first|last)_frame\b/g, '$1 frame')
    .replace(/\breference_(image|video)\b/g, 'reference $1')
    .replace(/\byou gave\b/g, 'you entered');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A problem in the words of the form that shows `problem.field`; it always names the field's label. */
export function formMessage(problem: FieldProblem, words: FormWords): string {
  const text = worded(problem, words);
  if (problem.field === '') return text;
  const label = words.label(problem.field);
  return text.toLowerCase().includes(label.toLowerCase()) ? text : `${label}: ${text}`;
}

function worded(problem: FieldProblem, words: FormWords): string {
  const detail = problem.detail;
  const label = words.label(problem.field);
  const model = problem.model ? words.model(problem.model) : null;
  if (!detail) return reword(problem.message, words);
  switch (detail.kind) {
    case 'setting':
      return `${label} must be ${allowed(detail.spec, lastName(problem.field), words)}; you entered ${shownValue(detail.given)}`;
    case 'required':
      return `${label} is required${model ? ` for ${model}` : ''}${detail.note ? ` (${detail.note})` : ''}`;
    case 'oneOf': {
      const names = detail.fields.map((f) => words.label(f).toLowerCase());
      return `Needs at least one of: ${names.join(', ')}`;
    }
    case 'tooMany':
      return `${model ?? 'This model'} takes at most ${detail.max} ${label.toLowerCase()}; you added ${detail.given}`;
    case 'url':
      return `${label} is not a public http(s) link: ${shownValue(detail.given)}`;
    case 'notReady':
      return `${detail.name} is ${detail.status || 'not ready'}: only ready models can generate`;
    case 'unknownModel':
      return `${model ?? 'This model'} is not one of your models`;
    case 'mustBe': {
      const value = words.value?.(lastName(problem.field), detail.required) ?? String(detail.required);
      return `${label} must be ${value} ${detail.when}; you chose ${shownValue(detail.given)}`;
    }
  }
}

/** Every problem reworded for a form (field and detail kept, so placement and focus still work). */
export function inFormWords(problems: readonly FieldProblem[], words: FormWords): FieldProblem[] {
  return problems.map((p) => ({ ...p, message: formMessage(p, words) }));
}

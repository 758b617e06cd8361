// Builds generation bodies from command-line flags. Values arrive as text; the rules tables
// (contract/rules) say which fields are numbers or booleans, so `--option outputCompression=80`
// becomes 80 and `--option generateAudio=true` becomes true. Text that does not fit its type is
// kept as text, so the shared validate() names the field and says what it accepts.
import {
  PUBLIC_IMAGE_MODELS,
  TRAINED_IMAGE_FIELDS,
  VIDEO_MODELS,
  isPublicImageModel,
  isVideoModel,
  type FieldProblem,
  type SettingSpec,
  type SettingsTable,
} from '../rules/index.ts';

export interface ImageFlags {
  model: string;
  prompt?: string | undefined;
  preset?: string | undefined;
  aspectRatio?: string | undefined;
  numImages?: string | undefined;
  referenceUrls?: readonly string[] | undefined;
  inputImage?: string | undefined;
  width?: string | undefined;
  height?: string | undefined;
  steps?: string | undefined;
  seed?: string | undefined;
  runType?: string | undefined;
  enhanceFace?: boolean | undefined;
  styleStrength?: string | undefined;
  options?: readonly string[] | undefined;
}

export interface VideoFlags {
  model: string;
  prompt?: string | undefined;
  numVideos?: string | undefined;
  referenceImages?: readonly string[] | undefined;
  referenceVideos?: readonly string[] | undefined;
  elements?: readonly string[] | undefined;
  options?: readonly string[] | undefined;
}

/** A body, or the problems of the flags themselves (a malformed KEY=VALUE), each naming its flag. */
export type Built = { ok: true; body: Record<string, unknown> } | { ok: false; problems: FieldProblem[] };

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** Text → the type `spec` wants, when the text really is one; otherwise the text itself. */
export function coerce(text: string, spec: SettingSpec | undefined): unknown {
  const kind = spec?.kind;
  const trimmed = text.trim();
  if (kind === 'int' || kind === 'intEnum' || kind === 'number') return NUMBER.test(trimmed) ? Number(trimmed) : text;
  if (kind === 'boolean') return booleanOf(trimmed) ?? text;
  if (kind === 'enum' || kind === 'string') return text;
  // A key no table knows (validate will refuse it by name): keep the natural reading of the text.
  if (NUMBER.test(trimmed)) return Number(trimmed);
  return booleanOf(trimmed) ?? text;
}

function booleanOf(text: string): boolean | undefined {
  const lower = text.toLowerCase();
  if (['true', 'yes', 'on', '1'].includes(lower)) return true;
  if (['false', 'no', 'off', '0'].includes(lower)) return false;
  return undefined;
}

/** Splits `KEY=VALUE` at the first `=` (values such as URLs may contain more). */
export function splitPair(text: string): [string, string] | null {
  const at = text.indexOf('=');
  if (at <= 0) return null;
  return [text.slice(0, at).trim(), text.slice(at + 1)];
}

interface OptionGroup {
  name: string;
  table: SettingsTable;
}

function imageOptionGroup(model: string): OptionGroup | null {
  if (!isPublicImageModel(model)) return null;
  const rules = PUBLIC_IMAGE_MODELS[model];
  return { name: rules.optionGroup, table: rules.options };
}

function videoOptionGroup(model: string): OptionGroup | null {
  if (!isVideoModel(model)) return null;
  const rules = VIDEO_MODELS[model];
  return { name: rules.optionGroup, table: rules.options };
}

/** A setting this model does not have may still exist on another model: coerce as that one would. */
function anySpecNamed(key: string): SettingSpec | undefined {
  for (const rules of [...Object.values(PUBLIC_IMAGE_MODELS), ...Object.values(VIDEO_MODELS)]) {
    const table: SettingsTable = rules.options;
    if (Object.hasOwn(table, key)) return table[key];
  }
  return undefined;
}

function optionsFrom(
  pairs: readonly string[],
  group: OptionGroup | null,
  problems: FieldProblem[],
): Record<string, unknown> | undefined {
  if (pairs.length === 0) return undefined;
  const values: Record<string, unknown> = {};
  for (const text of pairs) {
    const pair = splitPair(text);
    if (!pair || pair[0] === '') {
      problems.push({
        field: '--option',
        message: `--option takes KEY=VALUE (e.g. imageSize=2K); you gave "${text.slice(0, 40)}"`,
      });
      continue;
    }
    const [key, raw] = pair;
    const spec = group && Object.hasOwn(group.table, key) ? group.table[key] : anySpecNamed(key);
    values[key] = coerce(raw, spec);
  }
  // A model without an option group (a trained model) still gets `options` sent to validate,
  // which then refuses it by name instead of the CLI silently dropping what was asked for.
  return { [group?.name ?? 'options']: values };
}

const setIf = (body: Record<string, unknown>, key: string, value: unknown): void => {
  if (value !== undefined) body[key] = value;
};

export function buildImageBody(flags: ImageFlags): Built {
  const problems: FieldProblem[] = [];
  const body: Record<string, unknown> = { modelID: flags.model };
  const numeric = (key: string, text: string | undefined) =>
    setIf(body, key, text === undefined ? undefined : coerce(text, TRAINED_IMAGE_FIELDS[key]));
  setIf(body, 'prompt', flags.prompt);
  setIf(body, 'preset', flags.preset);
  setIf(body, 'aspectRatio', flags.aspectRatio);
  numeric('numImages', flags.numImages);
  if (flags.referenceUrls && flags.referenceUrls.length > 0) body['referenceImageURLs'] = [...flags.referenceUrls];
  setIf(body, 'inputImageId', flags.inputImage);
  numeric('width', flags.width);
  numeric('height', flags.height);
  numeric('steps', flags.steps);
  numeric('seed', flags.seed);
  setIf(body, 'runType', flags.runType);
  if (flags.enhanceFace) body['enhanceFace'] = true;
  numeric('styleStrength', flags.styleStrength);
  const group = imageOptionGroup(flags.model);
  const options = optionsFrom(flags.options ?? [], group, problems);
  if (options) body['options'] = group ? options : options['options'];
  return problems.length > 0 ? { ok: false, problems } : { ok: true, body };
}

export function buildVideoBody(flags: VideoFlags): Built {
  const problems: FieldProblem[] = [];
  const body: Record<string, unknown> = { modelID: flags.model };
  setIf(body, 'prompt', flags.prompt);
  if (flags.numVideos !== undefined) body['numVideos'] = coerce(flags.numVideos, { kind: 'int', min: 1, max: 4 });
  const images = (flags.referenceImages ?? []).map((text, i) => {
    const pair = splitPair(text);
    if (!pair) {
      problems.push({
        field: `--reference-image`,
        message: `--reference-image takes ROLE=URL (first_frame, last_frame or reference_image); item ${i + 1} has no role`,
      });
      return null;
    }
    return { url: pair[1], role: pair[0] };
  });
  if (images.length > 0) body['referenceImages'] = images.filter((item) => item !== null);
  const videos = (flags.referenceVideos ?? []).map((url) => ({ url, role: 'reference_video' }));
  if (videos.length > 0) body['referenceVideos'] = videos;
  if (flags.elements && flags.elements.length > 0) body['elementIDs'] = [...flags.elements];
  const options = optionsFrom(flags.options ?? [], videoOptionGroup(flags.model), problems);
  if (options) body['options'] = isVideoModel(flags.model) ? options : options['options'];
  return problems.length > 0 ? { ok: false, problems } : { ok: true, body };
}

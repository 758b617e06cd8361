// What "Try across models…" lets the user vary, read from the Create form's request and the rule tables:
// the kinds of axis (models, aspect ratio, preset, seed, count, prompt variants, each option of the
// current model), the values each offers (grouped, with names, never ids) and which of them the form's
// own request already holds (pre-checked). Pure: the dialog's state passes the account's models and presets.
import type { ExperimentAxisKind } from '@contract/ipc/experiments.ts';
import {
  IMAGE_ASPECT_RATIOS,
  publicModelFamilies,
  publicModelName,
  type SettingSpec,
  type SettingsTable,
} from '@contract/rules/index.ts';
import { PUBLIC_IMAGE_NUM_IMAGES, publicImageRules } from '@contract/rules/image-models.ts';
import { VIDEO_MODELS, VIDEO_NUM_VIDEOS, videoRules } from '@contract/rules/video-models.ts';
import { fieldLabel, valueLabel } from '../create/labels.ts';

export type GenerationKind = 'image' | 'video';

/** What the dialog knows besides the request: the account's models (image) and the service's presets. */
export interface AxisContext {
  kind: GenerationKind;
  body: Record<string, unknown>;
  /** The account's models Create image offers (trained ones and the service's provided ones). */
  accountModels: { id: string; label: string; usable: boolean; provided: boolean }[];
  presets: { tag: string; name: string }[];
}

export interface ValueChoice {
  value: string;
  label: string;
}

export interface ValueGroup {
  /** "Image family A", "Your models"; null for an ungrouped list. */
  label: string | null;
  values: ValueChoice[];
}

/** One thing an axis can vary: picked from a list (checkboxes) or typed (seeds, prompts, numbers). */
export interface AxisChoice {
  /** 'model', 'aspectRatio', … or 'option:<key>': the value of the "Vary" select. */
  id: string;
  kind: ExperimentAxisKind;
  /** The option's name for kind 'option'. */
  key: string | null;
  label: string;
  input: 'pick' | 'text';
}

/** Options with an axis of their own (aspect ratio, seed) or no list of values (free text). */
const NOT_AN_OPTION_AXIS = new Set(['aspectRatio', 'ratio', 'seed', 'negativePrompt']);

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** The current model's option settings (its option group's values) and their table. */
function modelOptions(ctx: AxisContext): { table: SettingsTable; values: Record<string, unknown> } {
  const modelID = str(ctx.body['modelID']) ?? '';
  const rules = ctx.kind === 'image' ? publicImageRules(modelID) : videoRules(modelID);
  if (!rules) return { table: {}, values: {} };
  const options = ctx.body['options'];
  const group =
    typeof options === 'object' && options !== null
      ? (options as Record<string, unknown>)[rules.optionGroup]
      : undefined;
  return {
    table: rules.options,
    values: typeof group === 'object' && group !== null ? (group as Record<string, unknown>) : {},
  };
}

/** The values of a setting a list can offer; null when it takes free numbers or text. */
function specValues(spec: SettingSpec): string[] | null {
  if (spec.kind === 'enum' || spec.kind === 'intEnum') return spec.values.map(String);
  if (spec.kind === 'boolean') return ['true', 'false'];
  return null;
}

const countLabel = (kind: GenerationKind) => (kind === 'image' ? 'Number of images' : 'Number of videos');

/** What the "Vary" select offers, in its order; the option entries are the current model's. */
export function axisChoices(ctx: AxisContext): AxisChoice[] {
  const choices: AxisChoice[] = [
    { id: 'model', kind: 'model', key: null, label: 'Models', input: 'pick' },
    { id: 'aspectRatio', kind: 'aspectRatio', key: null, label: 'Aspect ratio', input: 'pick' },
  ];
  if (ctx.kind === 'image') choices.push({ id: 'preset', kind: 'preset', key: null, label: 'Preset', input: 'pick' });
  choices.push(
    { id: 'seed', kind: 'seed', key: null, label: 'Seed', input: 'text' },
    { id: 'numImages', kind: 'numImages', key: null, label: countLabel(ctx.kind), input: 'pick' },
    { id: 'prompt', kind: 'prompt', key: null, label: 'Prompt variants', input: 'text' },
  );
  for (const [key, spec] of Object.entries(modelOptions(ctx).table)) {
    if (NOT_AN_OPTION_AXIS.has(key) || spec.kind === 'string') continue;
    choices.push({
      id: `option:${key}`,
      kind: 'option',
      key,
      label: fieldLabel(key),
      input: specValues(spec) ? 'pick' : 'text',
    });
  }
  return choices;
}

export function choiceById(ctx: AxisContext, id: string): AxisChoice | undefined {
  return axisChoices(ctx).find((choice) => choice.id === id);
}

/** Every aspect ratio a video model takes (family B calls it `ratio`), in a fixed order. */
function videoAspectRatios(): string[] {
  const seen = new Set<string>();
  for (const rules of Object.values(VIDEO_MODELS)) {
    for (const name of ['aspectRatio', 'ratio']) {
      const spec = (rules.options as SettingsTable)[name];
      if (spec?.kind === 'enum') for (const value of spec.values) seen.add(String(value));
    }
  }
  // In the image form's order (portrait and landscape side by side), the others ("adaptive") last.
  const rank = (ratio: string) => {
    const at = (IMAGE_ASPECT_RATIOS as readonly string[]).indexOf(ratio);
    return at === -1 ? IMAGE_ASPECT_RATIOS.length : at;
  };
  return [...seen].sort((a, b) => rank(a) - rank(b));
}

const plain = (values: readonly (string | number)[], field: string): ValueGroup[] => [
  { label: null, values: values.map((value) => ({ value: String(value), label: valueLabel(field, value) })) },
];

const range = (min: number, max: number): number[] => Array.from({ length: max - min + 1 }, (_, i) => min + i);

/** The values a pick axis offers, grouped (models by family, then the account's ready models). */
export function valueGroups(ctx: AxisContext, choice: AxisChoice): ValueGroup[] {
  switch (choice.kind) {
    case 'model': {
      const groups: ValueGroup[] = publicModelFamilies(ctx.kind).map((family) => ({
        label: family.label,
        values: family.ids.map((id) => ({ value: id, label: publicModelName(id) })),
      }));
      if (ctx.kind === 'video') return groups;
      // Only a ready model can generate; the service's free and general models stand apart, as in Create.
      const ready = ctx.accountModels.filter((m) => m.usable);
      const provided = ready.filter((m) => m.provided).map((m) => ({ value: m.id, label: m.label }));
      const own = ready.filter((m) => !m.provided).map((m) => ({ value: m.id, label: m.label }));
      if (provided.length > 0) groups.push({ label: 'Provided by the service', values: provided });
      if (own.length > 0) groups.push({ label: 'Your models', values: own });
      return groups;
    }
    case 'aspectRatio':
      return plain(ctx.kind === 'image' ? IMAGE_ASPECT_RATIOS : videoAspectRatios(), 'aspectRatio');
    case 'preset':
      return ctx.presets.length === 0
        ? []
        : [{ label: null, values: ctx.presets.map((p) => ({ value: p.tag, label: p.name })) }];
    case 'numImages': {
      const limits = ctx.kind === 'image' ? PUBLIC_IMAGE_NUM_IMAGES : VIDEO_NUM_VIDEOS;
      return plain(range(limits.min, limits.max), ctx.kind === 'image' ? 'numImages' : 'numVideos');
    }
    case 'option': {
      const spec = choice.key ? modelOptions(ctx).table[choice.key] : undefined;
      const values = spec ? specValues(spec) : null;
      if (!values || !choice.key) return [];
      const key = choice.key;
      return [
        {
          label: null,
          values: values.map((value) => ({
            value,
            label:
              value === 'true'
                ? 'On'
                : value === 'false'
                  ? 'Off'
                  : valueLabel(key, spec?.kind === 'intEnum' ? Number(value) : value),
          })),
        },
      ];
    }
    default:
      return [];
  }
}

/** The value the form's request holds for what `choice` varies (pre-checked or pre-filled), if any. */
export function currentValue(ctx: AxisContext, choice: AxisChoice): string | undefined {
  const { values } = modelOptions(ctx);
  const body = ctx.body;
  switch (choice.kind) {
    case 'model':
      return str(body['modelID']);
    case 'aspectRatio':
      return ctx.kind === 'image' ? str(body['aspectRatio']) : (str(values['aspectRatio']) ?? str(values['ratio']));
    case 'preset':
      return str(body['preset']);
    case 'numImages': {
      const n = body[ctx.kind === 'image' ? 'numImages' : 'numVideos'];
      return typeof n === 'number' ? String(n) : undefined;
    }
    case 'seed': {
      const seed = ctx.kind === 'image' ? body['seed'] : values['seed'];
      return typeof seed === 'number' ? String(seed) : undefined;
    }
    case 'prompt':
      return str(body['prompt']);
    case 'option': {
      const value = choice.key ? values[choice.key] : undefined;
      return value === undefined || value === null ? undefined : String(value);
    }
  }
}

/** The noun of an axis's values in messages: "Choose at least one model." */
export function valueNoun(choice: AxisChoice): { one: string; many: string } {
  switch (choice.kind) {
    case 'model':
      return { one: 'model', many: 'models' };
    case 'aspectRatio':
      return { one: 'aspect ratio', many: 'aspect ratios' };
    case 'preset':
      return { one: 'preset', many: 'presets' };
    case 'seed':
      return { one: 'seed', many: 'seeds' };
    case 'numImages':
      return { one: 'count', many: 'counts' };
    case 'prompt':
      return { one: 'prompt', many: 'prompts' };
    case 'option':
      return { one: 'value', many: 'values' };
  }
}

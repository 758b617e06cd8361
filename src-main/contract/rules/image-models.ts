// Public image model families of spec §4/§8 as data: option groups, enums, defaults, reference limits.
import type { SettingSpec, SettingsTable } from './common.ts';
import { lookup } from './common.ts';

export const IMAGE_ASPECT_RATIOS = ['1:1', '2:3', '3:2', '3:4', '4:3', '4:5', '5:4', '9:16', '16:9', '21:9'] as const;
export type ImageAspectRatio = (typeof IMAGE_ASPECT_RATIOS)[number];

export const PUBLIC_IMAGE_NUM_IMAGES = { min: 1, max: 4 } as const;

/** The public image families, each one option group under `options` (a new family starts here). */
export const IMAGE_OPTION_GROUPS = ['imagea', 'imageb', 'imagec'] as const;
export type ImageOptionGroup = (typeof IMAGE_OPTION_GROUPS)[number];

export interface PublicImageModelRules {
  family: ImageOptionGroup;
  /** The one key allowed under `options`. */
  optionGroup: ImageOptionGroup;
  maxReferenceURLs: number;
  options: SettingsTable;
}

// The tables are `as const`: the request types (ImageGroupOptions, contract/service.ts) are read
// from them, so a new family, setting or value here changes the types with no other edit.
const IMAGEA_OPTIONS = {
  imageSize: { kind: 'enum', values: ['1K', '2K', '4K'], default: '1K' },
  safetyFilterLevel: {
    kind: 'enum',
    values: ['OFF', 'BLOCK_NONE', 'BLOCK_ONLY_HIGH', 'BLOCK_MEDIUM_AND_ABOVE', 'BLOCK_LOW_AND_ABOVE'],
  },
  sequentialMode: { kind: 'enum', values: ['disabled', 'sequential'] },
} as const satisfies SettingsTable;

const IMAGEB_SEQUENTIAL = { kind: 'enum', values: ['auto', 'disabled'] } as const satisfies SettingSpec;

const IMAGEC_OPTIONS = {
  imageSize: { kind: 'enum', values: ['1K', '2K', '4K'] },
  quality: { kind: 'enum', values: ['auto', 'high', 'medium', 'low'] },
  background: { kind: 'enum', values: ['auto', 'opaque'], default: 'auto' },
  moderation: { kind: 'enum', values: ['auto', 'low'], default: 'auto' },
  outputFormat: { kind: 'enum', values: ['png', 'jpeg'], default: 'jpeg' },
  /** 0–100, only with outputFormat `jpeg`. */
  outputCompression: { kind: 'int', min: 0, max: 100 },
} as const satisfies SettingsTable;

export const PUBLIC_IMAGE_MODELS = {
  imagea: { family: 'imagea', optionGroup: 'imagea', maxReferenceURLs: 3, options: IMAGEA_OPTIONS },
  'imagea-pro': { family: 'imagea', optionGroup: 'imagea', maxReferenceURLs: 14, options: IMAGEA_OPTIONS },
  'imagea-2': { family: 'imagea', optionGroup: 'imagea', maxReferenceURLs: 14, options: IMAGEA_OPTIONS },
  imageb: {
    family: 'imageb',
    optionGroup: 'imageb',
    maxReferenceURLs: 10,
    options: {
      imageSize: { kind: 'enum', values: ['1K', '2K', '4K'] },
      optimizeMode: { kind: 'enum', values: ['standard', 'fast'] },
      sequentialMode: IMAGEB_SEQUENTIAL,
    },
  },
  'imageb-4_5': {
    family: 'imageb',
    optionGroup: 'imageb',
    maxReferenceURLs: 10,
    options: {
      imageSize: { kind: 'enum', values: ['2K', '4K'] },
      optimizeMode: { kind: 'enum', values: ['standard'] },
      sequentialMode: IMAGEB_SEQUENTIAL,
    },
  },
  'imageb-5-lite': {
    family: 'imageb',
    optionGroup: 'imageb',
    maxReferenceURLs: 10,
    options: {
      imageSize: { kind: 'enum', values: ['2K', '3K'] },
      optimizeMode: { kind: 'enum', values: ['standard'] },
      sequentialMode: IMAGEB_SEQUENTIAL,
    },
  },
  'imagec-2': { family: 'imagec', optionGroup: 'imagec', maxReferenceURLs: 10, options: IMAGEC_OPTIONS },
} as const satisfies Record<string, PublicImageModelRules>;

export type PublicImageModelId = keyof typeof PUBLIC_IMAGE_MODELS;
export const PUBLIC_IMAGE_MODEL_IDS = Object.keys(PUBLIC_IMAGE_MODELS) as PublicImageModelId[];

/** The value type a setting spec accepts: an enum's values, a number, a boolean, a string. */
export type SettingValue<S> = S extends { kind: 'enum'; values: readonly (infer V)[] }
  ? V
  : S extends { kind: 'intEnum'; values: readonly (infer N)[] }
    ? N
    : S extends { kind: 'int' | 'number' }
      ? number
      : S extends { kind: 'boolean' }
        ? boolean
        : S extends { kind: 'string' }
          ? string
          : never;

type ImageModels = typeof PUBLIC_IMAGE_MODELS;
/** The public models whose option group is `G`. */
export type ImageModelsOfGroup<G extends ImageOptionGroup> = {
  [M in PublicImageModelId]: ImageModels[M]['optionGroup'] extends G ? M : never;
}[PublicImageModelId];
type TablesOf<G extends ImageOptionGroup> = ImageModels[ImageModelsOfGroup<G>]['options'];
type KeysOfEach<T> = T extends unknown ? keyof T : never;
type ValuesAt<T, K> = T extends unknown ? (K extends keyof T ? SettingValue<T[K]> : never) : never;

/**
 * The settings of option group `G`, read from its models' tables: every setting any of them takes,
 * each with every value any of them accepts (which model takes which is `validate()`'s to say).
 */
export type ImageGroupOptions<G extends ImageOptionGroup> = {
  -readonly [K in KeysOfEach<TablesOf<G>>]?: ValuesAt<TablesOf<G>, K>;
};

/** Exactly one option group, the selected model's: `{ imagea: … } | { imageb: … } | …`. */
export type PublicImageOptions = {
  [G in ImageOptionGroup]: { [K in G]: ImageGroupOptions<G> } & { [K in Exclude<ImageOptionGroup, G>]?: never };
}[ImageOptionGroup];

export function isPublicImageModel(id: unknown): id is PublicImageModelId {
  return lookup<PublicImageModelRules>(PUBLIC_IMAGE_MODELS, id) !== undefined;
}

export function publicImageRules(id: unknown): PublicImageModelRules | undefined {
  return lookup<PublicImageModelRules>(PUBLIC_IMAGE_MODELS, id);
}

/**
 * Trained-model body (any model id that is not public). The spec gives types but no bounds; these are
 * our documented choices: sizes a typical fine-tuned diffusion model renders (256–2048 px), the same
 * 1–4 count as public models, 1–100 steps, a 32-bit unsigned seed, styleStrength as a 0–1 weight.
 */
export const TRAINED_IMAGE_FIELDS: SettingsTable = {
  prompt: { kind: 'string' },
  preset: { kind: 'string' },
  inputImageId: { kind: 'string' },
  width: { kind: 'int', min: 256, max: 2048 },
  height: { kind: 'int', min: 256, max: 2048 },
  numImages: { kind: 'int', min: 1, max: 4, default: 1 },
  steps: { kind: 'int', min: 1, max: 100 },
  seed: { kind: 'int', min: 0, max: 4294967295 },
  runType: { kind: 'string', nonEmpty: true },
  enhanceFace: { kind: 'boolean' },
  styleStrength: { kind: 'number', min: 0, max: 1 },
};

/** Plain top-level settings of a public-family body (prompt, preset, references and options are checked apart). */
export const PUBLIC_IMAGE_FIELDS: SettingsTable = {
  aspectRatio: { kind: 'enum', values: IMAGE_ASPECT_RATIOS, default: '1:1' },
  numImages: { kind: 'int', min: PUBLIC_IMAGE_NUM_IMAGES.min, max: PUBLIC_IMAGE_NUM_IMAGES.max, default: 1 },
};

export const PUBLIC_IMAGE_KEYS = [
  'modelID',
  'prompt',
  'preset',
  'aspectRatio',
  'numImages',
  'referenceImageURLs',
  'options',
];
export const TRAINED_IMAGE_KEYS = ['modelID', ...Object.keys(TRAINED_IMAGE_FIELDS)];

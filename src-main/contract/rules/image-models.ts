// Public image model families of spec §4/§8 as data: option groups, enums, defaults, reference limits.
import type { SettingSpec, SettingsTable } from './common.ts';
import { lookup } from './common.ts';

export const IMAGE_ASPECT_RATIOS = ['1:1', '2:3', '3:2', '3:4', '4:3', '4:5', '5:4', '9:16', '16:9', '21:9'] as const;

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

const imageSize = (values: readonly string[], dflt?: string): SettingSpec =>
  dflt === undefined ? { kind: 'enum', values } : { kind: 'enum', values, default: dflt };

const IMAGEA_OPTIONS: SettingsTable = {
  imageSize: imageSize(['1K', '2K', '4K'], '1K'),
  safetyFilterLevel: {
    kind: 'enum',
    values: ['OFF', 'BLOCK_NONE', 'BLOCK_ONLY_HIGH', 'BLOCK_MEDIUM_AND_ABOVE', 'BLOCK_LOW_AND_ABOVE'],
  },
  sequentialMode: { kind: 'enum', values: ['disabled', 'sequential'] },
};

const IMAGEB_SEQUENTIAL: SettingSpec = { kind: 'enum', values: ['auto', 'disabled'] };

const IMAGEC_OPTIONS: SettingsTable = {
  imageSize: imageSize(['1K', '2K', '4K']),
  quality: { kind: 'enum', values: ['auto', 'high', 'medium', 'low'] },
  background: { kind: 'enum', values: ['auto', 'opaque'], default: 'auto' },
  moderation: { kind: 'enum', values: ['auto', 'low'], default: 'auto' },
  outputFormat: { kind: 'enum', values: ['png', 'jpeg'], default: 'jpeg' },
  outputCompression: { kind: 'int', min: 0, max: 100 },
};

export const PUBLIC_IMAGE_MODELS = {
  imagea: { family: 'imagea', optionGroup: 'imagea', maxReferenceURLs: 3, options: IMAGEA_OPTIONS },
  'imagea-pro': { family: 'imagea', optionGroup: 'imagea', maxReferenceURLs: 14, options: IMAGEA_OPTIONS },
  'imagea-2': { family: 'imagea', optionGroup: 'imagea', maxReferenceURLs: 14, options: IMAGEA_OPTIONS },
  imageb: {
    family: 'imageb',
    optionGroup: 'imageb',
    maxReferenceURLs: 10,
    options: {
      imageSize: imageSize(['1K', '2K', '4K']),
      optimizeMode: { kind: 'enum', values: ['standard', 'fast'] },
      sequentialMode: IMAGEB_SEQUENTIAL,
    },
  },
  'imageb-4_5': {
    family: 'imageb',
    optionGroup: 'imageb',
    maxReferenceURLs: 10,
    options: {
      imageSize: imageSize(['2K', '4K']),
      optimizeMode: { kind: 'enum', values: ['standard'] },
      sequentialMode: IMAGEB_SEQUENTIAL,
    },
  },
  'imageb-5-lite': {
    family: 'imageb',
    optionGroup: 'imageb',
    maxReferenceURLs: 10,
    options: {
      imageSize: imageSize(['2K', '3K']),
      optimizeMode: { kind: 'enum', values: ['standard'] },
      sequentialMode: IMAGEB_SEQUENTIAL,
    },
  },
  'imagec-2': { family: 'imagec', optionGroup: 'imagec', maxReferenceURLs: 10, options: IMAGEC_OPTIONS },
} as const satisfies Record<string, PublicImageModelRules>;

export type PublicImageModelId = keyof typeof PUBLIC_IMAGE_MODELS;
export const PUBLIC_IMAGE_MODEL_IDS = Object.keys(PUBLIC_IMAGE_MODELS) as PublicImageModelId[];

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

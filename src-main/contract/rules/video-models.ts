// Video model families of spec §4/§8 as data: option groups, settings, defaults and which references each accepts.
//
// Where the spec is silent we chose (and the validator enforces):
// - first_frame and last_frame: every model accepts at most one of each.
// - reference_image: family A up to 3 (the spec's "must be 8 s with a reference_image" implies it takes
//   some), videob-2.0 up to 9 (spec), videoc-* up to 4 (their item cap), videod-1.5 none;
//   videob-1.5-pro accepts them but the service drops them (spec), so we warn and strip instead.
// - referenceVideos: only videob-2.0 (up to 3, spec) and the videoc families (within their cap of 4).
// - elementIDs: only the videoc families ("where available"; they are the ones the spec ties elements to).
// - numVideos: 1 to 4, mirroring public images' numImages (the spec says only "optional count").
// - seed: an integer from 0 to 4294967295 (32-bit unsigned) wherever a seed exists.
import type { ReferenceImageRole } from '../service.ts';
import type { SettingSpec, SettingsTable } from './common.ts';
import { lookup } from './common.ts';

export type VideoOptionGroup = 'videoa' | 'videob' | 'videoc' | 'videod';
export const VIDEO_OPTION_GROUPS: readonly VideoOptionGroup[] = ['videoa', 'videob', 'videoc', 'videod'];
export type VideoFamily = 'videoa' | 'videob' | 'videoc-video' | 'videoc-motion' | 'videod';

export const REFERENCE_IMAGE_ROLES: readonly ReferenceImageRole[] = ['first_frame', 'last_frame', 'reference_image'];
export const REFERENCE_VIDEO_ROLE = 'reference_video';
export const VIDEO_NUM_VIDEOS = { min: 1, max: 4 } as const;

/** Preparation metadata the service computes itself; clients must never send these (spec §4). */
export const BACKEND_ONLY_FIELDS = { referenceImages: ['containsHuman'], referenceVideos: ['duration'] } as const;

export interface VideoReferenceRules {
  /** Maximum count per reference-image role; a role absent here is refused for the model. */
  imageRoles: Partial<Record<ReferenceImageRole, number>>;
  /** Roles the service accepts but silently drops: allowed, warned about, stripped by normalize. */
  droppedImageRoles: readonly ReferenceImageRole[];
  /** 0 means referenceVideos are not accepted. */
  maxReferenceVideos: number;
  acceptsElementIDs: boolean;
  /** Cap on elementIDs + referenceImages + referenceVideos together. */
  maxTotalItems?: number;
}

export interface VideoModelRules {
  family: VideoFamily;
  optionGroup: VideoOptionGroup;
  options: SettingsTable;
  /** Settings of the shared group this model explicitly refuses, with the reason. */
  refusedOptions?: Readonly<Record<string, string>>;
  references: VideoReferenceRules;
}

const SEED: SettingSpec = { kind: 'int', min: 0, max: 4294967295 };
const VIDEOB_RATIOS = ['16:9', '4:3', '1:1', '3:4', '9:16', '21:9', 'adaptive'];
const ONE_FRAME_EACH = { first_frame: 1, last_frame: 1 } as const;

const VIDEOA: VideoModelRules = {
  family: 'videoa',
  optionGroup: 'videoa',
  options: {
    aspectRatio: { kind: 'enum', values: ['16:9', '9:16'], default: '16:9' },
    duration: { kind: 'intEnum', values: [4, 6, 8], default: 8 },
    resolution: { kind: 'enum', values: ['720p', '1080p'], default: '720p' },
    enhancePrompt: { kind: 'boolean', default: true },
    generateAudio: { kind: 'boolean', default: false },
    negativePrompt: { kind: 'string' },
    seed: SEED,
  },
  references: {
    imageRoles: { ...ONE_FRAME_EACH, reference_image: 3 },
    droppedImageRoles: [],
    maxReferenceVideos: 0,
    acceptsElementIDs: false,
  },
};

/** Duration that family A requires when any reference_image is present. */
export const VIDEOA_REFERENCE_IMAGE_DURATION = 8;

const VIDEOB_SHARED: SettingsTable = {
  resolution: { kind: 'enum', values: ['480p', '720p', '1080p'] },
  ratio: { kind: 'enum', values: VIDEOB_RATIOS },
  generateAudio: { kind: 'boolean' },
  returnLastFrame: { kind: 'boolean' },
  seed: SEED,
};

const VIDEOB_15_PRO: VideoModelRules = {
  family: 'videob',
  optionGroup: 'videob',
  options: {
    ...VIDEOB_SHARED,
    duration: { kind: 'int', min: 4, max: 12, also: [-1] },
    draftMode: { kind: 'boolean' },
  },
  references: {
    imageRoles: { ...ONE_FRAME_EACH },
    droppedImageRoles: ['reference_image'],
    maxReferenceVideos: 0,
    acceptsElementIDs: false,
  },
};

/** Resolution videob-1.5-pro renders at whenever draftMode is on. */
export const DRAFT_MODE_RESOLUTION = '480p';

const VIDEOB_20: VideoModelRules = {
  family: 'videob',
  optionGroup: 'videob',
  options: { ...VIDEOB_SHARED, duration: { kind: 'int', min: 4, max: 15 } },
  references: {
    imageRoles: { ...ONE_FRAME_EACH, reference_image: 9 },
    droppedImageRoles: [],
    maxReferenceVideos: 3,
    acceptsElementIDs: false,
  },
};

const VIDEOC_REFERENCES: VideoReferenceRules = {
  imageRoles: { ...ONE_FRAME_EACH, reference_image: 4 },
  droppedImageRoles: [],
  maxReferenceVideos: 4,
  acceptsElementIDs: true,
  maxTotalItems: 4,
};

const VIDEOC_VIDEO: VideoModelRules = {
  family: 'videoc-video',
  optionGroup: 'videoc',
  options: {
    duration: { kind: 'int', min: 3, max: 15, default: 10 },
    aspectRatio: { kind: 'enum', values: ['16:9', '9:16', '1:1'] },
    generateAudio: { kind: 'boolean', default: false },
  },
  references: VIDEOC_REFERENCES,
};

const MOTION_REFUSAL = 'motion models take no duration, aspectRatio or generateAudio';

const VIDEOC_MOTION: VideoModelRules = {
  family: 'videoc-motion',
  optionGroup: 'videoc',
  options: {
    characterOrientation: { kind: 'enum', values: ['image', 'video'], default: 'video' },
    keepOriginalSound: { kind: 'boolean', default: true },
  },
  refusedOptions: { duration: MOTION_REFUSAL, aspectRatio: MOTION_REFUSAL, generateAudio: MOTION_REFUSAL },
  references: VIDEOC_REFERENCES,
};

const VIDEOD: VideoModelRules = {
  family: 'videod',
  optionGroup: 'videod',
  options: {
    duration: { kind: 'int', min: 1, max: 15, default: 8 },
    aspectRatio: { kind: 'enum', values: ['1:1', '16:9', '9:16', '4:3', '3:4', '3:2', '2:3'], default: '16:9' },
    resolution: { kind: 'enum', values: ['480p', '720p'], default: '480p' },
  },
  references: {
    imageRoles: { ...ONE_FRAME_EACH },
    droppedImageRoles: [],
    maxReferenceVideos: 0,
    acceptsElementIDs: false,
  },
};

export const VIDEO_MODELS = {
  'videoa-3.1': VIDEOA,
  'videoa-3.1-fast': VIDEOA,
  'videob-1.5-pro': VIDEOB_15_PRO,
  'videob-2.0': VIDEOB_20,
  'videoc-video-standard': VIDEOC_VIDEO,
  'videoc-video-pro': VIDEOC_VIDEO,
  'videoc-motion-standard': VIDEOC_MOTION,
  'videoc-motion-pro': VIDEOC_MOTION,
  'videod-1.5': VIDEOD,
} as const satisfies Record<string, VideoModelRules>;

export type VideoModelId = keyof typeof VIDEO_MODELS;
export const VIDEO_MODEL_IDS = Object.keys(VIDEO_MODELS) as VideoModelId[];

export function isVideoModel(id: unknown): id is VideoModelId {
  return lookup<VideoModelRules>(VIDEO_MODELS, id) !== undefined;
}

export function videoRules(id: unknown): VideoModelRules | undefined {
  return lookup<VideoModelRules>(VIDEO_MODELS, id);
}

/** Models (any group) whose settings include `name`: used to say where a misplaced setting belongs. */
export function videoModelsWithSetting(name: string): VideoModelId[] {
  return VIDEO_MODEL_IDS.filter((id) => Object.hasOwn(VIDEO_MODELS[id].options, name));
}

export const VIDEO_KEYS = [
  'modelID',
  'prompt',
  'numVideos',
  'referenceImages',
  'referenceVideos',
  'elementIDs',
  'options',
];

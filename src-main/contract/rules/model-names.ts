// What people call the public models: a display name and one line on what each is, built from the
// rule tables so the line cannot promise what the rules refuse. Raw ids stay for details and the CLI.
import { lookup } from './common.ts';
import { PUBLIC_IMAGE_MODEL_IDS, PUBLIC_IMAGE_MODELS, type PublicImageModelRules } from './image-models.ts';
import { VIDEO_MODEL_IDS, VIDEO_MODELS, type VideoModelRules } from './video-models.ts';

export interface ModelWords {
  name: string;
  /** One line: what it is for and what it takes. */
  description: string;
  family: string;
}

const IMAGE_NAMES: Record<keyof typeof PUBLIC_IMAGE_MODELS, [string, string]> = {
  imagea: ['Image A', 'Quick general images'],
  'imagea-pro': ['Image A Pro', 'Detailed images that follow many references'],
  'imagea-2': ['Image A 2', 'The newer Image A, many references'],
  imageb: ['Image B', 'Fast images, with a fast mode'],
  'imageb-4_5': ['Image B 4.5', 'Large images, 2K and up'],
  'imageb-5-lite': ['Image B 5 Lite', 'Light and quick, 2K or 3K'],
  'imagec-2': ['Image C 2', 'Precise sizes, PNG or JPEG output, quality control'],
};

const VIDEO_NAMES: Record<keyof typeof VIDEO_MODELS, [string, string]> = {
  'videoa-3.1': ['Video A 3.1', 'Short clips with sound'],
  'videoa-3.1-fast': ['Video A 3.1 Fast', 'The quicker Video A'],
  'videob-1.5-pro': ['Video B 1.5 Pro', 'Clips from first and last frames, with a draft mode'],
  'videob-2.0': ['Video B 2.0', 'Clips guided by reference images and videos'],
  'videoc-video-standard': ['Video C', 'Clips from text, references or elements'],
  'videoc-video-pro': ['Video C Pro', 'Higher-quality Video C'],
  'videoc-motion-standard': ['Motion C', 'Moves a character like a motion video'],
  'videoc-motion-pro': ['Motion C Pro', 'Higher-quality Motion C'],
  'videod-1.5': ['Video D 1.5', 'Affordable clips of 1–15 s from text or frames'],
};

const FAMILY_NAMES: Record<string, string> = {
  imagea: 'Image family A',
  imageb: 'Image family B',
  imagec: 'Image family C',
  videoa: 'Video family A',
  videob: 'Video family B',
  'videoc-video': 'Video family C',
  'videoc-motion': 'Video family C · motion',
  videod: 'Video family D',
};

/** "imagec" → "Image family C"; undefined for a key the tables do not know. */
export const familyLabel = (family: string): string | undefined => lookup(FAMILY_NAMES, family);

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

function imageTakes(rules: PublicImageModelRules): string {
  const sizes = rules.options['imageSize'];
  const range = sizes?.kind === 'enum' ? `${sizes.values[0]}–${sizes.values[sizes.values.length - 1]}` : '';
  return [range, `up to ${plural(rules.maxReferenceURLs, 'reference image')}`].filter(Boolean).join(' · ');
}

function videoTakes(rules: VideoModelRules): string {
  const duration = rules.options['duration'];
  const seconds =
    duration?.kind === 'intEnum'
      ? `${duration.values.join(', ')} s`
      : duration?.kind === 'int'
        ? `${duration.min}–${duration.max} s`
        : '';
  const refs = rules.references;
  const frames = refs.imageRoles.first_frame ? 'first/last frame' : '';
  const images = refs.imageRoles.reference_image ? plural(refs.imageRoles.reference_image, 'reference image') : '';
  return [seconds, frames, images].filter(Boolean).join(' · ');
}

/** Name, line and family of a public model; undefined for any other id (a trained model). */
export function publicModelWords(id: string): ModelWords | undefined {
  const image = lookup(IMAGE_NAMES, id);
  const imageRules = lookup<PublicImageModelRules>(PUBLIC_IMAGE_MODELS, id);
  if (image && imageRules) {
    return {
      name: image[0],
      description: `${image[1]}. ${imageTakes(imageRules)}.`,
      family: FAMILY_NAMES[imageRules.family] ?? imageRules.family,
    };
  }
  const video = lookup(VIDEO_NAMES, id);
  const videoRules = lookup<VideoModelRules>(VIDEO_MODELS, id);
  if (video && videoRules) {
    const takes = videoTakes(videoRules);
    return {
      name: video[0],
      description: takes ? `${video[1]}. ${takes}.` : `${video[1]}.`,
      family: FAMILY_NAMES[videoRules.family] ?? videoRules.family,
    };
  }
  return undefined;
}

export interface ModelFamilyGroup {
  /** "Image family A". */
  label: string;
  ids: string[];
}

/** The public image or video models grouped by family, in the rule tables' order (the model pickers' groups). */
export function publicModelFamilies(kind: 'image' | 'video'): ModelFamilyGroup[] {
  const ids: readonly string[] = kind === 'image' ? PUBLIC_IMAGE_MODEL_IDS : VIDEO_MODEL_IDS;
  const familyOf = (id: string): string =>
    kind === 'image'
      ? (lookup<PublicImageModelRules>(PUBLIC_IMAGE_MODELS, id)?.family ?? id)
      : (lookup<VideoModelRules>(VIDEO_MODELS, id)?.family ?? id);
  const groups = new Map<string, string[]>();
  for (const id of ids) groups.set(familyOf(id), [...(groups.get(familyOf(id)) ?? []), id]);
  return [...groups].map(([family, members]) => ({ label: FAMILY_NAMES[family] ?? family, ids: members }));
}

/** The name to show for any model id: a public model's name, else the id itself. */
export const publicModelName = (id: string): string => publicModelWords(id)?.name ?? id;

/** Models the service provides to every account (GET /models adds them), by modelType, in plain words. */
export function providedModelDescription(modelType: string): string | undefined {
  if (modelType === 'free') return 'A general-purpose model the service provides: ready to use, no training needed.';
  if (modelType === 'general')
    return 'A general portrait model the service provides: ready to use, no training needed.';
  return undefined;
}

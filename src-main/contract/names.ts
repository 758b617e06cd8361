// The one naming service: what a model, preset, family, asset or job is called on every screen,
// notification, export and CLI line. Pure: what needs data (a trained model's label, a preset's
// name, a source image's prompt) is passed in by the caller (the renderer's names store, the core).
// Raw ids are for "Details" disclosures and copy-id actions only.
import { upscaleTitle, clipLine, TITLE_PROMPT_MAX } from './job-title.ts';
import { familyLabel, publicModelWords } from './rules/model-names.ts';

/** A service id as it would leak onto a screen: `mdl_…`, `img_…`, `vid_…`, `job_…`. */
export const RAW_ID_PATTERN = /\b(mdl|img|vid|job)_[0-9A-Za-z]+/;

/** The models GET /models adds to every account, by modelType: not the user's own, ready to use. */
export const isProvidedModelType = (modelType: string | null | undefined): boolean =>
  modelType === 'free' || modelType === 'general';

/** "free-general" → "Free general"; "photo-golden-hour" → "Photo golden hour". */
export function wordsOfSlug(slug: string): string {
  const words = slug
    .replace(/[-_]+/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export interface ModelNaming {
  /** The local label the user gave the model, when any. */
  label?: string | null | undefined;
  modelType?: string | null | undefined;
}

/**
 * What a model is called: a public model's name ("Image C 2"), a model's own label, a provided
 * model's name in words ("Free general"), a trained model without a label "Untitled model 00925f"
 * (never its `mdl_` id), null (no model) "No model".
 */
export function modelName(id: string | null | undefined, known: ModelNaming = {}): string {
  if (!id) return 'No model';
  const label = known.label?.trim();
  if (label) return label;
  const pub = publicModelWords(id);
  if (pub) return pub.name;
  const trained = /^mdl_([0-9A-Za-z]+)$/.exec(id);
  if (trained) return `Untitled model ${trained[1]!.slice(0, 6)}`;
  return wordsOfSlug(id);
}

/** A family key of the rule tables in words: "imagec" → "Image family C". */
export const familyWords = (family: string): string => familyLabel(family) ?? wordsOfSlug(family);

/** A model's family in words ("Image family C"); a trained or provided model's is its kind of model. */
export function familyName(modelId: string, modelType?: string | null): string {
  const pub = publicModelWords(modelId);
  if (pub) return pub.family;
  return isProvidedModelType(modelType) ? 'Provided by the service' : 'Your models';
}

/** What a preset is called: its name from the service's list, else its slug in words. */
export function presetName(slug: string | null | undefined, nameOf?: (slug: string) => string | undefined): string {
  if (!slug) return 'No preset';
  return nameOf?.(slug)?.trim() || wordsOfSlug(slug);
}

export interface AssetNaming {
  kind: 'image' | 'video';
  prompt: string | null;
  origin?: string | null | undefined;
  /** The image an upscale was made from, when this is one. */
  sourceAssetId?: string | null | undefined;
}

/**
 * What an asset is called (a lineage link, a notification, a dialog title): its prompt, an
 * upscale "Upscale of “<its source's prompt>”", an upload "Uploaded image", else "Image without a prompt".
 */
export function assetTitle(asset: AssetNaming, sourcePrompt?: string | null): string {
  if (asset.sourceAssetId && !asset.prompt) return upscaleTitle(sourcePrompt);
  if (asset.prompt) return clipLine(asset.prompt, TITLE_PROMPT_MAX);
  const noun = asset.kind === 'video' ? 'video' : 'image';
  if (asset.origin === 'uploaded') return `Uploaded ${noun}`;
  return `${noun === 'video' ? 'Video' : 'Image'} without a prompt`;
}

/** A reference given as a URL, named by its file ("heron.png") or its host; never the whole address. */
export function referenceName(url: string): string {
  try {
    const parsed = new URL(url);
    const file = decodeURIComponent(parsed.pathname.split('/').filter(Boolean).at(-1) ?? '');
    if (/\.(png|jpe?g|webp|gif|mp4|mov|webm)$/i.test(file) && !RAW_ID_PATTERN.test(file)) return file;
    return `an image from ${parsed.hostname}`;
  } catch {
    return 'a reference image';
  }
}

export { jobTitle, upscaleTitle } from './job-title.ts';

// Human labels and short explanations for request fields and their values, shared by the image and video forms,
// and the words the rules' message table uses to say a problem the way the form shows it.
import { publicModelName, type FormWords } from '@contract/rules/index.ts';

const FIELD_LABELS: Record<string, string> = {
  modelID: 'Model',
  options: 'Options',
  referenceImageURLs: 'Reference images',
  referenceImages: 'Reference images',
  referenceVideos: 'Reference videos',
  elementIDs: 'Element IDs',
  prompt: 'Prompt',
  preset: 'Preset',
  aspectRatio: 'Aspect ratio',
  numImages: 'Images',
  numVideos: 'Videos',
  imageSize: 'Size',
  safetyFilterLevel: 'Safety filter',
  sequentialMode: 'Sequential mode',
  optimizeMode: 'Optimize',
  quality: 'Quality',
  background: 'Background',
  moderation: 'Moderation',
  outputFormat: 'Format',
  outputCompression: 'JPEG compression',
  duration: 'Duration',
  resolution: 'Resolution',
  // Whatever the API calls it (videob's "ratio"), the screen says the same thing.
  ratio: 'Aspect ratio',
  enhancePrompt: 'Enhance prompt',
  generateAudio: 'Generate audio',
  negativePrompt: 'Negative prompt',
  seed: 'Seed',
  draftMode: 'Draft mode',
  returnLastFrame: 'Return last frame',
  characterOrientation: 'Character orientation',
  keepOriginalSound: 'Keep original sound',
  width: 'Width',
  height: 'Height',
  steps: 'Steps',
  runType: 'Run type',
  enhanceFace: 'Enhance face',
  styleStrength: 'Style strength',
  inputImageId: 'Input image',
};

const FIELD_HINTS: Record<string, string> = {
  sequentialMode: 'Sequential renders several images one after another.',
  negativePrompt: 'What to keep out of the video.',
  draftMode: 'A quick draft, always rendered at 480p.',
  returnLastFrame: 'Also return the final frame as an image.',
  enhancePrompt: 'Let the model expand the prompt.',
  styleStrength: 'How strongly the input image shapes the result (0 to 1).',
  enhanceFace: 'Restore facial detail after generation.',
  inputImageId: 'One of this model’s reference images; the result follows it.',
  runType: 'Optional: a run mode your model was set up with. Leave empty if you are not sure.',
  characterOrientation: 'Follow the pose of the character image or of the motion video.',
  keepOriginalSound: 'Keep the sound of the motion video.',
};

/** "safetyFilterLevel" → "Safety filter level" for fields without a label of their own. */
const humanize = (name: string): string => {
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

export const fieldLabel = (name: string): string => FIELD_LABELS[name] ?? humanize(name);
export const fieldHint = (name: string): string | undefined => FIELD_HINTS[name];

const VALUE_LABELS: Record<string, string> = {
  png: 'PNG',
  jpeg: 'JPEG',
  OFF: 'Off',
  adaptive: 'Adaptive',
  first_frame: 'First frame',
  last_frame: 'Last frame',
  reference_image: 'Reference',
  reference_video: 'Reference video',
};

/** Labels of enum values: sizes, ratios and resolutions stay as written; words get sentence case. */
export function valueLabel(field: string, value: string | number): string {
  if (typeof value === 'number') return field === 'duration' ? `${value} s` : String(value);
  const known = VALUE_LABELS[value];
  if (known) return known;
  if (/^[A-Z_]+$/.test(value)) {
    const words = value.replaceAll('_', ' ').toLowerCase();
    return words.charAt(0).toUpperCase() + words.slice(1);
  }
  if (/^[a-z]+$/.test(value)) return value.charAt(0).toUpperCase() + value.slice(1);
  return value;
}

const LIST_ITEMS: Record<string, string> = {
  referenceImageURLs: 'Reference image',
  referenceImages: 'Reference image',
  referenceVideos: 'Reference video',
  elementIDs: 'Element',
};

/** The on-screen label of a request field path: 'options.imagec.outputCompression' → 'JPEG compression'. */
export function pathLabel(path: string): string {
  const item = /^([A-Za-z]+)\[(\d+)\](?:\.([a-z]+))?$/.exec(path);
  if (item) {
    const [, list = '', index = '0', part] = item;
    const name = `${LIST_ITEMS[list] ?? fieldLabel(list)} ${Number(index) + 1}`;
    return part === 'role' ? `Role of ${name.toLowerCase()}` : name;
  }
  const parts = path.split('.');
  if (parts[0] === 'options') return parts.length >= 3 ? fieldLabel(parts[parts.length - 1] ?? '') : 'Options';
  return fieldLabel(path);
}

/** The words a Create form speaks: its labels, model names (public ones, then `otherName`), value labels. */
export function formWords(otherName: (id: string) => string | undefined = () => undefined): FormWords {
  return {
    label: pathLabel,
    model: (id) => otherName(id) ?? publicModelName(id),
    value: valueLabel,
  };
}

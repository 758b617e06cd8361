// Human labels and short explanations for request fields and their values, shared by the image and video forms.

const FIELD_LABELS: Record<string, string> = {
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
  ratio: 'Ratio',
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
  inputImageId: 'The id of an uploaded auxiliary image of this model.',
  runType: 'Optional run mode of your trained model.',
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

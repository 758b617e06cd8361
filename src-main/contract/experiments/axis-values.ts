// The form of an experiment axis's values, checked where the arguments enter (the channel's schema)
// and by the renderer's dialog: a seed is a whole number, an aspect ratio is width:height. Whether a
// value fits each model is the mapping's (image-mapping.ts, video-mapping.ts): this file only refuses what fits none.
// Imports nothing of contract/ipc, so the channel's schema can use it.
import { clipLine } from '../job-title.ts';

const SEED_MAX = 4294967295;
const WHOLE = /^\d+$/;

/** What is wrong with an axis value's form, in plain words; null when it is fine. Its fit to each model is the mapping's. */
export function axisValueProblem(kind: string, value: string): string | null {
  const shown = `“${clipLine(value, 40)}”`;
  const text = value.trim();
  switch (kind) {
    case 'model':
      return text === '' ? 'A model axis lists a model with no id.' : null;
    case 'aspectRatio':
      return /^\d{1,4}:\d{1,4}$/.test(text) && !/(^|:)0+(:|$)/.test(text)
        ? null
        : text === 'adaptive'
          ? null
          : `The aspect ratio ${shown} is not of the form width:height, such as 16:9.`;
    case 'seed':
      return WHOLE.test(text) && Number(text) <= SEED_MAX
        ? null
        : `The seed ${shown} is not a whole number from 0 to ${SEED_MAX}.`;
    case 'numImages':
      return WHOLE.test(text) && Number(text) >= 1 && Number(text) <= 100
        ? null
        : `The number of images ${shown} is not a whole number of at least 1.`;
    case 'prompt':
      return text === '' ? 'A prompt axis lists an empty prompt.' : null;
    case 'option':
      return text === '' ? 'An option axis lists an empty value.' : null;
    default:
      return null;
  }
}

/** The first problem of any value of the axes, or null. */
export function axesProblem(axes: readonly { kind: string; values: readonly string[] }[]): string | null {
  for (const axis of axes)
    for (const value of axis.values) {
      const problem = axisValueProblem(axis.kind, value);
      if (problem) return problem;
    }
  return null;
}

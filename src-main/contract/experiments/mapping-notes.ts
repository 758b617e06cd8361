// The words of an experiment's mapping: what a setting is called in a note, and the notes
// themselves ("aspect ratio 21:9 → 16:9: Video A 3.1 has no 21:9", "quality dropped: Image A has no
// such option"). One place, so every family's mapping speaks the same way.
import type { ExperimentNoteInfo } from '../ipc/experiments.ts';
import { wordsOfSlug } from '../names.ts';

const SETTING_WORDS: Readonly<Record<string, string>> = {
  numImages: 'number of images',
  numVideos: 'number of videos',
  aspectRatio: 'aspect ratio',
  ratio: 'aspect ratio',
  referenceImageURLs: 'reference images',
  referenceImages: 'reference images',
  referenceVideos: 'reference videos',
  elementIDs: 'elements',
  inputImageId: 'input image',
};

/** A setting in words, lower case, for the middle of a sentence: "imageSize" → "image size". */
export const settingWords = (key: string): string =>
  Object.hasOwn(SETTING_WORDS, key) ? SETTING_WORDS[key]! : wordsOfSlug(key).toLowerCase();

/** A value as a note shows it: text as is, a number as digits, true/false as on/off. */
export function valueWords(value: unknown): string {
  if (typeof value === 'boolean') return value ? 'on' : 'off';
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  return 'that value';
}

/** The notes of one cell, for the model it is mapped to (`model`: its name). */
export class MappingNotes {
  readonly list: ExperimentNoteInfo[] = [];
  readonly model: string;

  constructor(model: string) {
    this.model = model;
  }

  /** "aspect ratio 21:9 → 16:9: <why>"; the reason defaults to "<model> has no <from>". */
  mapped(field: string, key: string, from: unknown, to: unknown, why?: string): void {
    const reason = why ?? `${this.model} has no ${valueWords(from)}`;
    this.list.push({
      field,
      change: 'mapped',
      message: `${settingWords(key)} ${valueWords(from)} → ${valueWords(to)}: ${reason}`,
    });
  }

  /** "quality dropped: <why>"; the reason defaults to "<model> has no such option". */
  dropped(field: string, key: string, why?: string): void {
    this.list.push({
      field,
      change: 'dropped',
      message: `${settingWords(key)} dropped: ${why ?? `${this.model} has no such option`}`,
    });
  }

  /** Forgets what was said about these settings (by their last name: `imageSize`): an axis value replaces them. */
  forget(keys: readonly string[]): void {
    const gone = (field: string) => keys.includes(field.split('.').at(-1) ?? field);
    const kept = this.list.filter((note) => !gone(note.field));
    this.list.splice(0, this.list.length, ...kept);
  }

  /** A change the rules themselves make (a forced value), in their words. */
  forced(field: string, message: string): void {
    this.list.push({ field, change: 'mapped', message });
  }
}

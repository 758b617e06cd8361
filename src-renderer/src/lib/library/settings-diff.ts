// What differs between the items of Compare: their prompts word by word, their settings row by row.
// Pure: the view (components/asset/CompareNotes.svelte) words and marks what this returns. The first
// item is the reference the others are compared with; its own prompt shows the words the second lost
// when two are compared.
import { diffWordsWithSpace } from 'diff';
import type { AssetInfo } from '@contract/ipc/assets.ts';
import { assetParams } from './asset-params.ts';
import { mediaFacts } from './media-facts.ts';
import { requestRows, type RequestRow, type RowNames } from './request-rows.ts';

export type WordMark = 'same' | 'added' | 'removed';

export interface PromptPart {
  text: string;
  mark: WordMark;
}

export interface PromptDiff {
  /** The prompt as parts; 'added' = not in the reference, 'removed' = the reference's words missing here. */
  parts: PromptPart[];
  /** False when either prompt is unknown: nothing is marked then. */
  compared: boolean;
}

const isSpace = (text: string): boolean => /^\s*$/.test(text);

/** A marked run's spaces at either end are not part of the change. */
function trimmed(part: PromptPart): PromptPart[] {
  if (part.mark === 'same') return [part];
  const match = /^(\s*)([\s\S]*?)(\s*)$/.exec(part.text);
  const [, head = '', body = '', tail = ''] = match ?? [];
  return [
    { text: head, mark: 'same' },
    { text: body, mark: part.mark },
    { text: tail, mark: 'same' },
  ];
}

/**
 * Joins neighbours with the same mark, so a run of changed words is one marked span, with the
 * spaces around it unmarked.
 */
function merged(parts: PromptPart[]): PromptPart[] {
  const out: PromptPart[] = [];
  for (const part of parts.flatMap(trimmed)) {
    if (!part.text) continue;
    const last = out.at(-1);
    if (last && last.mark === part.mark) last.text += part.text;
    else out.push({ ...part });
  }
  return out;
}

/**
 * `other` against `reference`, word by word (punctuation marks are words of their own; a change of
 * spacing alone is not a difference). `keep` says which side's text the parts spell: 'other' gives its
 * prompt with added words and, inline, the reference's removed ones; 'reference' gives the reference's
 * own prompt with the words the other lost marked removed.
 */
export function diffPrompts(
  reference: string | null,
  other: string | null,
  keep: 'other' | 'reference' = 'other',
): PromptDiff {
  const own = keep === 'other' ? other : reference;
  if (reference === null || other === null) {
    return { parts: own ? [{ text: own, mark: 'same' }] : [], compared: false };
  }
  // diffWordsWithSpace keeps every space as a token, so each side's text is spelled exactly by its parts.
  const parts: PromptPart[] = [];
  for (const change of diffWordsWithSpace(reference, other)) {
    const mark: WordMark = change.added ? 'added' : change.removed ? 'removed' : 'same';
    if (keep === 'reference' && mark === 'added') continue;
    if (mark !== 'same' && isSpace(change.value)) {
      // Only spacing changed: shown as this side has it, unmarked.
      if ((keep === 'other' && mark === 'added') || (keep === 'reference' && mark === 'removed'))
        parts.push({ text: change.value, mark: 'same' });
      continue;
    }
    parts.push({ text: change.value, mark });
  }
  return { parts: merged(parts), compared: true };
}

/** Whether the prompt parts mark anything. */
export const promptsDiffer = (diff: PromptDiff): boolean => diff.parts.some((part) => part.mark !== 'same');

/**
 * The settings of one item as labelled rows: the model and preset by name, the request's fields as the
 * viewer's details show them (library/request-rows.ts), then what is known of the media (dimensions,
 * length, format). Without a known request: model, preset and the media facts.
 */
export function settingsOf(
  asset: Pick<
    AssetInfo,
    'paramsJson' | 'modelId' | 'preset' | 'kind' | 'width' | 'height' | 'durationMs' | 'format' | 'factsFrom' | 'file'
  >,
  names: RowNames,
): RequestRow[] {
  const request = assetParams(asset);
  const rows = request ? requestRows(request, names) : [];
  const labels = new Set(rows.map((row) => row.label));
  const head: RequestRow[] = [];
  if (!labels.has('Model') && asset.modelId) head.push({ label: 'Model', value: names.model(asset.modelId) });
  if (!labels.has('Preset') && asset.preset) head.push({ label: 'Preset', value: names.preset(asset.preset) });
  const facts = mediaFacts(asset).filter((fact) => fact.label !== 'On disk' && !labels.has(fact.label));
  return [...head, ...rows, ...facts];
}

/**
 * How a row stands: the same on every side, set everywhere but different, or set on some sides only.
 * A cell: 'same' (as the reference, or every side agrees), 'different' (set, but not as on every
 * side), 'only-some' (set here, missing elsewhere), 'absent' (missing here, set elsewhere).
 */
export type RowState = 'same' | 'different' | 'only-some';
export type CellMark = 'same' | 'different' | 'only-some' | 'absent';

export interface SettingsDiffRow {
  label: string;
  /** One per side, null where the side has no such setting. */
  values: (string | null)[];
  state: RowState;
  cells: CellMark[];
}

/**
 * The rows of every side lined up by label (a label met twice on one side, "Reference image 1", is
 * lined up with the same occurrence on the others), in the order first met.
 */
export function diffSettings(sides: readonly (readonly RequestRow[])[]): SettingsDiffRow[] {
  const order: string[] = [];
  const labelOf = new Map<string, string>();
  const valuesBySide = sides.map((rows) => {
    const seen = new Map<string, number>();
    const values = new Map<string, string>();
    for (const row of rows) {
      const nth = seen.get(row.label) ?? 0;
      seen.set(row.label, nth + 1);
      const key = `${row.label}\u0000${nth}`;
      if (!labelOf.has(key)) {
        labelOf.set(key, row.label);
        order.push(key);
      }
      values.set(key, row.value);
    }
    return values;
  });
  return order.map((key) => {
    const values = valuesBySide.map((side) => side.get(key) ?? null);
    const present = values.filter((value): value is string => value !== null);
    const allSet = present.length === values.length;
    const allEqual = present.every((value) => value === present[0]);
    const state: RowState = !allSet ? 'only-some' : allEqual ? 'same' : 'different';
    const cells = values.map((value): CellMark => {
      if (state === 'same') return 'same';
      if (value === null) return 'absent';
      if (state === 'only-some') return 'only-some';
      return 'different';
    });
    return { label: labelOf.get(key) ?? key, values, state, cells };
  });
}

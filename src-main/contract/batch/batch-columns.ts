// The settings a batch row may carry: the `atelier generate` flags without their dashes, plus
// `option:KEY` for a setting of the model's option group. One table serves the CSV header check,
// the CLI's shared flags and the mapping of a row's cells to a request body (request-flags.ts).
import type { FieldProblem } from '../rules/index.ts';
import { buildImageBody, buildVideoBody } from './request-flags.ts';

/** Which kinds of job a column applies to. */
type Applies = 'both' | 'image' | 'video';

/** Every column a batch CSV may have besides `option:KEY`, in the order help lists them. */
export const BATCH_COLUMNS = {
  kind: 'both',
  model: 'both',
  prompt: 'both',
  preset: 'image',
  'aspect-ratio': 'image',
  'num-images': 'image',
  'reference-url': 'image',
  'input-image': 'image',
  width: 'image',
  height: 'image',
  steps: 'image',
  seed: 'image',
  'run-type': 'image',
  'enhance-face': 'image',
  'style-strength': 'image',
  'num-videos': 'video',
  'reference-image': 'video',
  'reference-video': 'video',
  element: 'video',
} as const satisfies Record<string, Applies>;

export type BatchColumn = keyof typeof BATCH_COLUMNS;
export const OPTION_PREFIX = 'option:';
/** Columns whose cell holds several values, separated by spaces (URLs, ids). */
const LISTS: ReadonlySet<string> = new Set(['reference-url', 'reference-image', 'reference-video', 'element']);

/** A row's settings by column name (`option:imageSize` included); an absent key is the default. */
export type BatchCells = Record<string, string>;

export type BatchKind = 'image' | 'video';

export function isBatchColumn(name: string): boolean {
  return Object.hasOwn(BATCH_COLUMNS, name) || (name.startsWith(OPTION_PREFIX) && name.length > OPTION_PREFIX.length);
}

/** Why a header cell is not a column, or null. */
export function columnProblem(name: string): string | null {
  if (isBatchColumn(name)) return null;
  if (name === '') return 'a column has no name';
  if (name === OPTION_PREFIX) return 'column "option:" names no option (write option:KEY, e.g. option:imageSize)';
  return `unknown column "${name}": columns are ${Object.keys(BATCH_COLUMNS).join(', ')} and option:KEY`;
}

const onOff = (text: string | undefined): boolean | undefined => {
  if (text === undefined) return undefined;
  const lower = text.trim().toLowerCase();
  return ['true', 'yes', 'on', '1'].includes(lower) ? true : undefined;
};

/** The request a row's (expanded) cells make, or the problems that keep it from being one. */
export type RowRequest =
  { ok: true; request: { kind: BatchKind; body: Record<string, unknown> } } | { ok: false; problems: FieldProblem[] };

/** Cells → a body, exactly as `atelier generate image|video` builds one from the same flags. */
export function requestOfCells(cells: BatchCells): RowRequest {
  const kindText = (cells['kind'] ?? 'image').trim().toLowerCase();
  if (kindText !== 'image' && kindText !== 'video')
    return {
      ok: false,
      problems: [{ field: 'kind', message: `kind must be image or video; you gave "${cells['kind']}"` }],
    };
  const kind: BatchKind = kindText;
  const problems: FieldProblem[] = [];
  const options: string[] = [];
  for (const [name, value] of Object.entries(cells)) {
    if (name.startsWith(OPTION_PREFIX)) options.push(`${name.slice(OPTION_PREFIX.length)}=${value}`);
    else {
      const applies: Applies | undefined = (BATCH_COLUMNS as Record<string, Applies>)[name];
      if (applies !== undefined && applies !== 'both' && applies !== kind)
        problems.push({ field: name, message: `${name} is a setting of ${applies} jobs, not of ${kind} jobs` });
    }
  }
  if (problems.length > 0) return { ok: false, problems };
  const list = (name: string) => (LISTS.has(name) ? (cells[name] ?? '').split(/\s+/).filter((s) => s !== '') : []);
  const model = (cells['model'] ?? '').trim();
  const built =
    kind === 'image'
      ? buildImageBody({
          model,
          prompt: cells['prompt'],
          preset: cells['preset'],
          aspectRatio: cells['aspect-ratio'],
          numImages: cells['num-images'],
          referenceUrls: list('reference-url'),
          inputImage: cells['input-image'],
          width: cells['width'],
          height: cells['height'],
          steps: cells['steps'],
          seed: cells['seed'],
          runType: cells['run-type'],
          enhanceFace: onOff(cells['enhance-face']),
          styleStrength: cells['style-strength'],
          options,
        })
      : buildVideoBody({
          model,
          prompt: cells['prompt'],
          numVideos: cells['num-videos'],
          referenceImages: list('reference-image'),
          referenceVideos: list('reference-video'),
          elements: list('element'),
          options,
        });
  if (!built.ok) return built;
  // No model: the rules say what is required, in their own words ("modelID is required: …").
  if (model === '') delete built.body['modelID'];
  return { ok: true, request: { kind, body: built.body } };
}

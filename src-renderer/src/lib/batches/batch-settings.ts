// Create's form as a batch's shared settings (batches:plan `settings`): the request body the form
// describes, said in the batch columns' names (contract/batch/batch-columns.ts: the `generate` flags
// without dashes, `option:KEY` for the model's option group). Every row gets them; a row's own cell
// wins. The prompt is not one of them: each row brings its own. A value is written so the plan reads
// it back as it is: its `{ } | \` escaped, so a setting never expands as a wildcard.
import type { BatchCells } from '@contract/batch/batch-columns.ts';

/** The text of a value, `{`, `}`, `|` and `\` escaped (contract/batch/wildcards.ts). */
export const literalCell = (text: string): string => text.replace(/[{}|\\]/g, (ch) => `\\${ch}`);

const textOf = (value: unknown): string | null => {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return null;
};

/** Image body fields → their column (a trained model's fields included). */
const IMAGE_FIELDS: Record<string, string> = {
  modelID: 'model',
  preset: 'preset',
  aspectRatio: 'aspect-ratio',
  numImages: 'num-images',
  inputImageId: 'input-image',
  width: 'width',
  height: 'height',
  steps: 'steps',
  seed: 'seed',
  runType: 'run-type',
  styleStrength: 'style-strength',
};

const VIDEO_FIELDS: Record<string, string> = { modelID: 'model', numVideos: 'num-videos' };

function put(cells: BatchCells, column: string, value: unknown): void {
  const text = textOf(value);
  if (text !== null && text !== '') cells[column] = literalCell(text);
}

/** A list column's cell: its items separated by spaces (a URL holds no space). */
function putList(cells: BatchCells, column: string, items: readonly string[]): void {
  const kept = items.filter((item) => item !== '');
  if (kept.length > 0) cells[column] = kept.map(literalCell).join(' ');
}

function putOptions(cells: BatchCells, options: unknown): void {
  if (typeof options !== 'object' || options === null) return;
  for (const group of Object.values(options as Record<string, unknown>)) {
    if (typeof group !== 'object' || group === null) continue;
    for (const [key, value] of Object.entries(group as Record<string, unknown>)) put(cells, `option:${key}`, value);
  }
}

/** The settings every row of a batch started from this Create form shares (no prompt). */
export function batchSettingsOf(kind: 'image' | 'video', body: Record<string, unknown>): BatchCells {
  const cells: BatchCells = { kind };
  const fields = kind === 'image' ? IMAGE_FIELDS : VIDEO_FIELDS;
  for (const [field, column] of Object.entries(fields)) put(cells, column, body[field]);
  if (kind === 'image') {
    if (body['enhanceFace'] === true) cells['enhance-face'] = 'true';
    const urls = body['referenceImageURLs'];
    if (Array.isArray(urls))
      putList(
        cells,
        'reference-url',
        urls.filter((u): u is string => typeof u === 'string'),
      );
  } else {
    const images = body['referenceImages'];
    if (Array.isArray(images)) {
      putList(
        cells,
        'reference-image',
        images.flatMap((r: { url?: unknown; role?: unknown }) =>
          typeof r.url === 'string' && typeof r.role === 'string' ? [`${r.role}=${r.url}`] : [],
        ),
      );
    }
    const videos = body['referenceVideos'];
    if (Array.isArray(videos)) {
      putList(
        cells,
        'reference-video',
        videos.flatMap((r: { url?: unknown }) => (typeof r.url === 'string' ? [r.url] : [])),
      );
    }
    const elements = body['elementIDs'];
    if (Array.isArray(elements))
      putList(
        cells,
        'element',
        elements.filter((e): e is string => typeof e === 'string'),
      );
  }
  putOptions(cells, body['options']);
  return cells;
}

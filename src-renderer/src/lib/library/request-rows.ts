// The request that made an asset as labelled rows ("Aspect ratio · 16:9", "Model · Image C 2"),
// as the Create forms name fields and values: the viewer's "Request parameters" instead of raw
// JSON. Ids and addresses are named (a model by its name, a reference by its file), never shown raw.
import { RAW_ID_PATTERN } from '@contract/names.ts';
import { fieldLabel, pathLabel, valueLabel } from '../create/labels.ts';

export interface RequestRow {
  label: string;
  value: string;
}

export interface RowNames {
  model(id: string): string;
  preset(slug: string): string;
  reference(url: string): string;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Request fields that hold an image id, named as what they are. */
const ID_FIELDS: Record<string, string> = {
  imageID: 'Source image',
  inputImageId: 'Input image',
  elementIDs: 'Element',
};
const labelOf = (field: string): string => ID_FIELDS[field] ?? fieldLabel(field);

/** Fields shown elsewhere in the details (the prompt above the rows). */
const SHOWN_ELSEWHERE = new Set(['prompt']);

function valueText(field: string, value: unknown, names: RowNames): string {
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'number') return valueLabel(field, value);
  if (typeof value === 'string') {
    if (field === 'modelID') return names.model(value);
    if (field === 'preset') return names.preset(value);
    if (/^(https?:|data:)/.test(value)) return names.reference(value);
    // An image or element id: its id is under "Details" (requestIds), never in the rows.
    if (RAW_ID_PATTERN.test(value)) return 'One of your images (id under Details)';
    return valueLabel(field, value);
  }
  return '—';
}

function listRows(field: string, items: unknown[], names: RowNames): RequestRow[] {
  return items.map((item, i) => {
    const label = pathLabel(`${field}[${i}]`);
    if (!isRecord(item)) return { label, value: valueText(field, item, names) };
    const url = typeof item['url'] === 'string' ? names.reference(item['url']) : null;
    const role = typeof item['role'] === 'string' ? valueLabel('role', item['role']) : null;
    const rest = Object.entries(item)
      .filter(([key]) => key !== 'url' && key !== 'role')
      .map(([key, value]) => `${fieldLabel(key)} ${valueText(key, value, names)}`);
    return { label, value: [role, url, ...rest].filter(Boolean).join(' · ') || '—' };
  });
}

/** The ids a request names (an upscale's image, a trained model's input image), for the "Details" disclosure. */
export function requestIds(request: Record<string, unknown>): [string, string][] {
  const found: [string, string][] = [];
  const walk = (field: string, value: unknown) => {
    if (typeof value === 'string' && field !== 'modelID' && RAW_ID_PATTERN.test(value))
      found.push([`${labelOf(field)} id`, value]);
    else if (Array.isArray(value)) for (const item of value) walk(field, item);
    else if (isRecord(value)) for (const [key, inner] of Object.entries(value)) walk(key, inner);
  };
  for (const [field, value] of Object.entries(request)) walk(field, value);
  return found;
}

/** Every field of the request, option groups flattened, in the order sent. */
export function requestRows(request: Record<string, unknown>, names: RowNames): RequestRow[] {
  const rows: RequestRow[] = [];
  const add = (field: string, value: unknown) => {
    if (value === undefined || value === null || SHOWN_ELSEWHERE.has(field)) return;
    if (Array.isArray(value)) rows.push(...listRows(field, value, names));
    else if (isRecord(value)) for (const [key, inner] of Object.entries(value)) add(key, inner);
    else rows.push({ label: labelOf(field), value: valueText(field, value, names) });
  };
  for (const [field, value] of Object.entries(request)) {
    // An option group ({ imagec: { quality: … } }) is a level the user never sees.
    if (field === 'options' && isRecord(value)) {
      for (const group of Object.values(value))
        if (isRecord(group)) for (const [k, v] of Object.entries(group)) add(k, v);
    } else add(field, value);
  }
  return rows;
}

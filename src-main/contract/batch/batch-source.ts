// A batch's rows from what the user gives: a list of prompts (one a line) or a CSV whose header
// names the columns (batch-columns.ts). Each row keeps the number the user can find it by.
// - Prompt list: N is the line number in the text; blank lines and lines starting with `#` are
//   skipped (and still counted, so N matches an editor's line numbers).
// - CSV: N is the record's number after the header (the first data row is row 1); quotes, embedded
//   newlines, CRLF and a BOM are read as CSV has them; an empty cell is the default (the shared
//   setting, else the model's own); an empty row (a blank line, or only commas) is skipped but still
//   counted, so N matches a spreadsheet's row number minus the header when no cell spans lines.
// Spaces around a cell are dropped (inside quotes they are kept).
import { normalize_options, parse } from 'csv-parse/browser/esm/sync';
import { columnProblem, type BatchCells } from './batch-columns.ts';

export interface BatchRow {
  /** The number the user finds it by: the line (prompt list) or the row after the header (CSV). */
  row: number;
  cells: BatchCells;
}

/** A row that cannot be read at all (before any settings are checked). */
export interface UnreadableRow {
  row: number;
  message: string;
}

export interface BatchSource {
  rows: BatchRow[];
  unreadable: UnreadableRow[];
}

/** The whole file is refused (its header, or text that is not CSV): nothing of it can be planned. */
export class BatchSourceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BatchSourceError';
  }
}

export function readPromptList(text: string): BatchSource {
  const rows: BatchRow[] = [];
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/);
  lines.forEach((line, i) => {
    const prompt = line.trim();
    if (prompt === '' || prompt.startsWith('#')) return;
    rows.push({ row: i + 1, cells: { prompt } });
  });
  return { rows, unreadable: [] };
}

/** The class of the Buffers csv-parse's browser build makes and reads (its own polyfill), or null. */
interface ParserBuffer {
  from(buffer: ArrayBufferLike, byteOffset: number, length: number): unknown;
  isBuffer(value: unknown): boolean;
}
let parserBuffer: ParserBuffer | null | undefined;

function parserBufferClass(): ParserBuffer | null {
  if (parserBuffer !== undefined) return parserBuffer;
  const quote: unknown = normalize_options({}).quote;
  const made =
    typeof quote === 'object' && quote !== null ? (Object.getPrototypeOf(quote) as object).constructor : null;
  const fits = (c: unknown): c is ParserBuffer =>
    typeof c === 'function' &&
    'from' in c &&
    typeof c.from === 'function' &&
    'isBuffer' in c &&
    typeof c.isBuffer === 'function';
  parserBuffer = fits(made) ? made : null;
  return parserBuffer;
}

/**
 * The text as the bytes csv-parse reads. Its browser build turns a string into bytes with its
 * Buffer polyfill, byte by byte in JS: ~10 ms for a 1,000-row CSV, most of planning a batch
 * (bench scenario 8). The platform's TextEncoder makes the same UTF-8 bytes in microseconds; they
 * are handed over as that polyfill's Buffer (its `from` of an ArrayBuffer: a view, no copy), which
 * is what the parser makes of a string itself. Without that class the parser gets the string.
 */
function csvBytes(text: string): string | Uint8Array {
  const Buffer = parserBufferClass();
  if (!Buffer) return text;
  const bytes = new TextEncoder().encode(text);
  const wrapped = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return Buffer.isBuffer(wrapped) && wrapped instanceof Uint8Array ? wrapped : text;
}

/** The CSV's records as csv-parse reads them (BOM dropped, quotes, spaces around cells trimmed). */
export function csvRecords(text: string): string[][] {
  return parse(csvBytes(text), { bom: true, relax_column_count: true, trim: true }) as string[][];
}

export function readBatchCsv(text: string): BatchSource {
  let records: string[][];
  try {
    records = csvRecords(text);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new BatchSourceError(`The CSV could not be read: ${message}`);
  }
  const header = records[0];
  if (!header) throw new BatchSourceError('The CSV is empty: its first row must name the columns (e.g. prompt,model).');
  const seen = new Set<string>();
  const problems: string[] = [];
  for (const name of header) {
    const problem = columnProblem(name);
    if (problem) problems.push(problem);
    else if (seen.has(name)) problems.push(`column "${name}" appears twice`);
    seen.add(name);
  }
  if (problems.length > 0) throw new BatchSourceError(`The CSV's header is refused: ${problems.join('; ')}.`);
  const rows: BatchRow[] = [];
  const unreadable: UnreadableRow[] = [];
  records.slice(1).forEach((record, i) => {
    const row = i + 1;
    if (record.every((cell) => cell === '')) return;
    if (record.length > header.length) {
      unreadable.push({ row, message: `it has ${record.length} cells but the header names ${header.length} columns` });
      return;
    }
    const cells: BatchCells = {};
    header.forEach((name, at) => {
      const value = record[at] ?? '';
      if (value !== '') cells[name] = value;
    });
    rows.push({ row, cells });
  });
  return { rows, unreadable };
}

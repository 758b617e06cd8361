// A batch's rows from what the user gives: a list of prompts (one a line) or a CSV whose header
// names the columns (batch-columns.ts). Each row keeps the number the user can find it by.
// - Prompt list: N is the line number in the text; blank lines and lines starting with `#` are
//   skipped (and still counted, so N matches an editor's line numbers).
// - CSV: N is the record's number after the header (the first data row is row 1); quotes, embedded
//   newlines, CRLF and a BOM are read as CSV has them; an empty cell is the default (the shared
//   setting, else the model's own); an empty row (a blank line, or only commas) is skipped but still
//   counted, so N matches a spreadsheet's row number minus the header when no cell spans lines.
// Spaces around a cell are dropped (inside quotes they are kept).
import { parse } from 'csv-parse/browser/esm/sync';
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

export function readBatchCsv(text: string): BatchSource {
  let records: string[][];
  try {
    records = parse(text, { bom: true, relax_column_count: true, trim: true }) as string[][];
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

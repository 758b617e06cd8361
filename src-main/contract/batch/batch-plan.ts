// A batch's plan: every row with the shared settings under it, its wildcards expanded, each job
// checked by the same rules as a single request (contract/rules validate(), the rules' own
// messages). What a plan holds is what would be sent: the valid jobs, and the refused ones as
// `row N: <problem>` (with which expansion, when a row made several), never sent.
import { validate, type FieldProblem } from '../rules/index.ts';
import { requestOfCells, type BatchCells, type BatchKind } from './batch-columns.ts';
import type { BatchRow, BatchSource } from './batch-source.ts';
import { BATCH_MAX_JOBS, WildcardError, wildcard, type Wildcard } from './wildcards.ts';

export interface PlannedJob {
  row: number;
  /** 1-based, among the jobs its row expanded to (1 of 1 for a row without wildcards). */
  expansion: number;
  of: number;
  kind: BatchKind;
  body: Record<string, unknown>;
}

export interface RefusedJob {
  row: number;
  /** Which expansion of its row (null: the row itself, e.g. a brace never closed). */
  expansion: number | null;
  of: number;
  problems: FieldProblem[];
  /** `row 3: …` or `row 3 (expansion 2 of 4): …`, in the rules' words. */
  message: string;
}

export interface BatchPlanResult {
  jobs: PlannedJob[];
  refused: RefusedJob[];
}

const max = BATCH_MAX_JOBS.toLocaleString('en-US');

export class BatchTooLargeError extends Error {
  readonly count: number;
  constructor(count: number) {
    const made = count >= Number.MAX_SAFE_INTEGER ? `far more than ${max}` : count.toLocaleString('en-US');
    super(
      `This batch would make ${made} jobs; one batch makes at most ${max}. Fewer {a|b} choices or rows bring it under.`,
    );
    this.count = count;
    this.name = 'BatchTooLargeError';
  }
}

export function rowLabel(row: number, expansion: number | null, of: number): string {
  return expansion === null || of <= 1 ? `row ${row}` : `row ${row} (expansion ${expansion} of ${of})`;
}

function refused(row: number, expansion: number | null, of: number, problems: FieldProblem[]): RefusedJob {
  const text = problems.map((p) =>
    p.field === '' || p.message.startsWith(p.field) ? p.message : `${p.field}: ${p.message}`,
  );
  return { row, expansion, of, problems, message: `${rowLabel(row, expansion, of)}: ${text.join('; ')}` };
}

/** A row's cells with the shared ones under them, each parsed for wildcards. */
function parsedCells(row: BatchRow, shared: BatchCells): { names: string[]; cards: Wildcard[]; count: number } {
  // The row's own cells first (reading order), then the shared settings it leaves empty.
  const cells: BatchCells = { ...row.cells };
  for (const [name, value] of Object.entries(shared)) if (!(name in cells)) cells[name] = value;
  const names = Object.keys(cells).filter((name) => cells[name] !== '');
  const cards = names.map((name) => {
    try {
      return wildcard(cells[name]!);
    } catch (error) {
      if (error instanceof WildcardError) throw new WildcardError(`${name}: ${error.message}`);
      throw error;
    }
  });
  return { names, cards, count: cards.reduce((n, card) => n * card.count, 1) };
}

/** Every combination of the cells' alternatives, the first column varying slowest (the row's own, then the shared ones). */
function combinations(names: readonly string[], cards: readonly Wildcard[]): BatchCells[] {
  const lists = cards.map((card) => card.expand());
  const total = lists.reduce((n, texts) => n * texts.length, 1);
  const out: BatchCells[] = [];
  for (let k = 0; k < total; k += 1) {
    // k in mixed radix, the last column the fastest digit; each object built once, key by key.
    const picks: number[] = [];
    let rest = k;
    for (let i = lists.length - 1; i >= 0; i -= 1) {
      const size = lists[i]!.length;
      picks[i] = rest % size;
      rest = Math.floor(rest / size);
    }
    const cells: BatchCells = {};
    for (let i = 0; i < names.length; i += 1) cells[names[i]!] = lists[i]![picks[i]!]!;
    out.push(cells);
  }
  return out;
}

/**
 * Plans `source` with `shared` settings (the CLI's flags, the form's settings) under every row.
 * Throws BatchTooLargeError when the jobs would number more than BATCH_MAX_JOBS (counted first,
 * nothing built).
 */
export function planBatch(source: BatchSource, shared: BatchCells = {}): BatchPlanResult {
  const parsed = source.rows.map((row) => {
    try {
      return { row, ...parsedCells(row, shared), error: null };
    } catch (error) {
      if (!(error instanceof WildcardError)) throw error;
      return { row, names: [], cards: [], count: 0, error: error.message };
    }
  });
  const total = parsed.reduce((n, p) => n + p.count, 0);
  if (total > BATCH_MAX_JOBS) throw new BatchTooLargeError(total);
  const jobs: PlannedJob[] = [];
  const refusedJobs: RefusedJob[] = source.unreadable.map((u) =>
    refused(u.row, null, 1, [{ field: '', message: u.message }]),
  );
  for (const p of parsed) {
    if (p.error !== null) {
      refusedJobs.push(refused(p.row.row, null, 1, [{ field: '', message: p.error }]));
      continue;
    }
    combinations(p.names, p.cards).forEach((cells, i) => {
      const expansion = i + 1;
      const made = requestOfCells(cells);
      const problems = made.ok ? validate(made.request) : made.problems;
      if (!made.ok || problems.length > 0) refusedJobs.push(refused(p.row.row, expansion, p.count, problems));
      else jobs.push({ row: p.row.row, expansion, of: p.count, kind: made.request.kind, body: made.request.body });
    });
  }
  refusedJobs.sort((a, b) => a.row - b.row || (a.expansion ?? 0) - (b.expansion ?? 0));
  return { jobs, refused: refusedJobs };
}

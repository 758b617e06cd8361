// An experiment's plan (experiments:plan) in the dialog's words: the summary line ("6 jobs · about 24
// credits · about 3 min"), what the send button says it does and costs, each cell's estimate and
// mark, the mapped and dropped settings listed under the table, the refused cells, a default name.
import type { CostEstimateInfo } from '@contract/ipc/jobs.ts';
import type { ExperimentCellPlanInfo, ExperimentPlanInfo } from '@contract/ipc/experiments.ts';
import { creditsText } from '../create/cost-estimate.ts';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The cells that will be sent (refused ones never are). */
export const sentCells = (plan: { cells: ExperimentCellPlanInfo[] }): ExperimentCellPlanInfo[] =>
  plan.cells.filter((cell) => cell.refused === null);

/** "about 24 credits", "about 24 credits + 2 unknown", "cost unknown" (no history yet for any). */
export function totalCreditsText(plan: ExperimentPlanInfo): string {
  const jobs = sentCells(plan).length;
  if (jobs > 0 && plan.unknownEstimates >= jobs) return 'cost unknown';
  const known = `about ${creditsText(plan.totalCredits)}`;
  return plan.unknownEstimates > 0 ? `${known} + ${plan.unknownEstimates} unknown` : known;
}

/** "about 40 s", "about 3 min", "about 1 h 20 min"; "time unknown" without history. */
export function durationText(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return 'time unknown';
  if (seconds < 60) return `about ${Math.max(1, Math.round(seconds))} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `about ${minutes} min`;
  const rest = minutes % 60;
  return `about ${Math.floor(minutes / 60)} h${rest > 0 ? ` ${rest} min` : ''}`;
}

/** "6 jobs · about 24 credits · about 3 min". */
export function planSummary(plan: ExperimentPlanInfo): string {
  const jobs = sentCells(plan).length;
  return [plural(jobs, 'job'), totalCreditsText(plan), durationText(plan.expectedSeconds)].join(' · ');
}

/** What the send button says: "Send 6 jobs (about 24 credits)". */
export function sendLabel(plan: ExperimentPlanInfo): string {
  return `Send ${plural(sentCells(plan).length, 'job')} (${totalCreditsText(plan)})`;
}

/** A cell's estimate: "about 4 credits", "no estimate yet". */
export function cellEstimateText(estimate: CostEstimateInfo): string {
  return estimate.credits === null ? 'no estimate yet' : `about ${creditsText(estimate.credits)}`;
}

/** A cell's mark when settings were mapped or dropped for its model: "2 settings changed". */
export function cellNotesText(cell: ExperimentCellPlanInfo): string | null {
  return cell.notes.length === 0 ? null : `${plural(cell.notes.length, 'setting')} changed`;
}

/** The cell's name by its row and column labels: "Image B × 21:9", or the row's alone for one axis. */
export function cellName(plan: ExperimentPlanInfo, cell: ExperimentCellPlanInfo): string {
  const row = plan.rows[cell.row]?.label ?? '';
  const column = plan.axes.length > 1 ? (plan.columns[cell.column]?.label ?? '') : '';
  return column ? `${row} × ${column}` : row;
}

/**
 * The mapped or dropped settings in words, each change said once with where it applies: a whole row or
 * column by its name ("Image A: quality dropped: …", as a model's changes usually are), else its cells.
 */
export function noteLines(plan: ExperimentPlanInfo): string[] {
  const where = new Map<string, ExperimentCellPlanInfo[]>();
  for (const cell of plan.cells)
    for (const note of cell.notes) {
      const cells = where.get(note.message) ?? [];
      if (!cells.includes(cell)) cells.push(cell);
      where.set(note.message, cells);
    }
  const twoAxes = plan.axes.length > 1;
  const wholeRow = (cells: ExperimentCellPlanInfo[]) =>
    twoAxes && cells.length === plan.columns.length && cells.every((c) => c.row === cells[0]?.row);
  const wholeColumn = (cells: ExperimentCellPlanInfo[]) =>
    twoAxes && cells.length === plan.rows.length && cells.every((c) => c.column === cells[0]?.column);
  return [...where].map(([message, cells]) => {
    const first = cells[0]!;
    const place =
      cells.length === plan.cells.length && plan.cells.length > 1
        ? 'Every cell'
        : wholeRow(cells)
          ? (plan.rows[first.row]?.label ?? '')
          : wholeColumn(cells)
            ? (plan.columns[first.column]?.label ?? '')
            : cells.map((cell) => cellName(plan, cell)).join(', ');
    return `${place}: ${message}`;
  });
}

/** The cells that will not be sent, with the rules' reason. */
export function refusedLines(plan: ExperimentPlanInfo): string[] {
  return plan.cells.flatMap((cell) => (cell.refused === null ? [] : [`${cellName(plan, cell)}: ${cell.refused}`]));
}

/** The name an experiment gets unless the user types one: its prompt, shortened. */
export function defaultName(prompt: unknown): string {
  const text = typeof prompt === 'string' ? prompt.trim().replace(/\s+/g, ' ') : '';
  if (text === '') return 'Untitled experiment';
  return text.length > 60 ? `${text.slice(0, 59).trimEnd()}…` : text;
}

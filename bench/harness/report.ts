// Benchmark rows (figure, baseline, ratio, goal), the table printed at the end of a run and the
// results.json written beside it.
import { writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';

export interface BenchRow {
  /** e.g. '1 polling'. */
  scenario: string;
  figure: string;
  /** Unit of `value` and `baseline` ('' for plain numbers and ratios). */
  unit: string;
  /** Atelier's figure; null when it could not be measured (see note). */
  value: number | null;
  baseline: number | null;
  /** What the baseline is, e.g. 'naive poller', 'raw SQL', 'curl'. */
  baselineName: string;
  /** value / baseline, measured in the same run. */
  ratio: number | null;
  /** The issue's goal for this row, in words ('' when the row has none). */
  goal: string;
  /** null: no goal on this row, or not measurable. */
  met: boolean | null;
  note?: string;
}

/** A row whose ratio is computed from its two sides. */
export function row(fields: Omit<BenchRow, 'ratio'> & { ratio?: number | null }): BenchRow {
  const { value, baseline } = fields;
  const computed = value !== null && baseline !== null && baseline !== 0 ? value / baseline : null;
  return { ...fields, ratio: fields.ratio !== undefined ? fields.ratio : computed };
}

/** Three significant digits, no exponent for the ranges benchmarks produce. */
export function formatNumber(value: number | null): string {
  if (value === null || !Number.isFinite(value)) return '—';
  if (value === 0) return '0';
  const abs = Math.abs(value);
  if (abs >= 1000) return Math.round(value).toLocaleString('en-US');
  if (abs >= 100) return value.toFixed(0);
  if (abs >= 10) return value.toFixed(1);
  if (abs >= 1) return value.toFixed(2);
  if (abs >= 0.01) return value.toFixed(3);
  return value.toPrecision(2);
}

const withUnit = (value: number | null, unit: string): string =>
  value === null ? '—' : unit ? `${formatNumber(value)} ${unit}` : formatNumber(value);

const metText = (met: boolean | null): string => (met === null ? '—' : met ? 'yes' : 'NO');

export function formatTable(rows: readonly BenchRow[]): string {
  const notes: string[] = [];
  const header = ['scenario', 'figure', 'Atelier', 'baseline', 'ratio', 'goal', 'met?'];
  const cells = rows.map((r) => {
    let figure = r.figure;
    if (r.note) {
      // Rows sharing a note share its number.
      if (!notes.includes(r.note)) notes.push(r.note);
      figure += ` [${notes.indexOf(r.note) + 1}]`;
    }
    const baseline =
      r.baseline === null
        ? r.baselineName
          ? `— (${r.baselineName})`
          : '—'
        : `${withUnit(r.baseline, r.unit)} (${r.baselineName})`;
    return [
      r.scenario,
      figure,
      withUnit(r.value, r.unit),
      baseline,
      formatNumber(r.ratio),
      r.goal || '—',
      metText(r.met),
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (values: readonly string[]) => `| ${values.map((v, i) => v.padEnd(widths[i]!)).join(' | ')} |`;
  const rule = `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`;
  const table = [line(header), rule, ...cells.map(line)].join('\n');
  return notes.length === 0 ? table : `${table}\n${notes.map((n, i) => `[${i + 1}] ${n}`).join('\n')}`;
}

export interface ScenarioOutcome {
  id: string;
  title: string;
  status: 'ok' | 'crashed' | 'skipped';
  durationMs: number;
  error?: string;
  /** Raw samples and settings, for whoever wants to look deeper than the table. */
  details?: unknown;
}

export interface BenchResults {
  startedAt: string;
  durationMs: number;
  mode: 'full' | 'quick';
  machine: { node: string; platform: string; cpus: number; cpuModel: string; memoryMB: number; loadAverage: number[] };
  rows: BenchRow[];
  scenarios: ScenarioOutcome[];
}

export function machineInfo(loadAverage: number[]): BenchResults['machine'] {
  const list = cpus();
  return {
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    cpus: list.length,
    cpuModel: list[0]?.model ?? 'unknown',
    memoryMB: Math.round(totalmem() / 1024 / 1024),
    loadAverage,
  };
}

export function writeResults(file: string, results: BenchResults): void {
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
}

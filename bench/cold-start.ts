// Scenario 5: core cold start with 100,000 assets, each run in a fresh process: open, migrations
// check, first grid page. Atelier and the raw better-sqlite3 baseline take turns. Two variants:
// the database file evicted from the OS page cache before every run (a start after a reboot or a
// long idle; `dd iflag=nocache` drops just this file's pages) and a warm OS cache.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchContext, Scenario } from './harness/context.ts';
import { lastJson, runNode } from './harness/child.ts';
import { seededLibraryCopy } from './harness/library-seed.ts';
import { row, type BenchRow } from './harness/report.ts';
import { summarize } from './harness/stats.ts';

interface ColdRun {
  mode: 'atelier' | 'raw';
  totalMs: number;
  openMs: number;
  importMs: number;
  items: number;
}

const GOAL_MS = 300;

/** Drops the file's pages from the OS cache (POSIX_FADV_DONTNEED via GNU dd); false when not possible. */
export function evictFromPageCache(file: string): boolean {
  try {
    for (const path of [file, `${file}-wal`]) {
      if (existsSync(path))
        execFileSync('dd', [`if=${path}`, 'iflag=nocache', 'count=0', 'status=none'], { stdio: 'ignore' });
    }
    return true;
  } catch {
    return false;
  }
}

export const coldStart: Scenario = {
  id: 'cold-start',
  title: '5 cold start',
  async run(ctx: BenchContext) {
    const size = ctx.quick ? 20_000 : 100_000;
    const reps = ctx.quick ? 4 : 15;
    const file = seededLibraryCopy(ctx, size);
    const child = join(import.meta.dirname, 'children', 'cold-start.ts');
    const canEvict = evictFromPageCache(file);
    const variants = canEvict ? (['evicted', 'warm'] as const) : (['warm'] as const);
    const rows: BenchRow[] = [];
    const details: Record<string, unknown> = { assets: size, reps };
    for (const variant of variants) {
      const runs: Record<'atelier' | 'raw', ColdRun[]> = { atelier: [], raw: [] };
      // One untimed run each, so a first-open migration or stats write is not in the figures.
      for (const mode of ['atelier', 'raw'] as const) await runNode(child, [file, mode]);
      for (let i = 0; i < reps; i += 1) {
        for (const mode of i % 2 === 0 ? (['atelier', 'raw'] as const) : (['raw', 'atelier'] as const)) {
          if (variant === 'evicted') evictFromPageCache(file);
          const result = lastJson<ColdRun>(await runNode(child, [file, mode]));
          if (result.items !== Math.min(200, size))
            throw new Error(`${mode} cold start returned ${result.items} items`);
          runs[mode].push(result);
        }
      }
      const ours = summarize(runs.atelier.map((r) => r.totalMs));
      const raw = summarize(runs.raw.map((r) => r.totalMs));
      details[variant] = {
        atelier: {
          total: ours,
          open: summarize(runs.atelier.map((r) => r.openMs)),
          import: summarize(runs.atelier.map((r) => r.importMs)),
        },
        raw: {
          total: raw,
          open: summarize(runs.raw.map((r) => r.openMs)),
          import: summarize(runs.raw.map((r) => r.importMs)),
        },
      };
      rows.push(
        row({
          scenario: this.title,
          figure: `open + migrations check + first page, ${variant === 'evicted' ? 'file evicted from OS cache' : 'warm OS cache'}, median`,
          unit: 'ms',
          value: ours.median,
          baseline: raw.median,
          baselineName: 'raw better-sqlite3',
          goal: `≤ ${GOAL_MS} ms`,
          met: ours.median === null ? null : ours.median <= GOAL_MS,
          ...(size !== 100_000 ? { note: `quick mode: ${size.toLocaleString('en-US')} assets, not 100,000` } : {}),
          ...(variant === 'warm' && !canEvict
            ? { note: 'could not evict the file from the OS cache (no GNU dd): warm only' }
            : {}),
        }),
      );
    }
    return { rows, details };
  },
};

// Scenario 5: core cold start with 1,000,000 assets, each run in a fresh process: open, migrations
// check, first grid page; the whole core start from its sources and as bundled for the app; the
// idle RSS it leaves. Atelier and the raw better-sqlite3 baseline take turns. Two variants:
// the database file evicted from the OS page cache before every run (a start after a reboot or a
// long idle; `dd iflag=nocache` drops just this file's pages) and a warm OS cache.
import { execFileSync } from 'node:child_process';
import { existsSync, linkSync, mkdirSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { accountDatabasePath } from '../src-main/core/db/account-path.ts';
import { keyFingerprint } from '../src-main/core/secrets/fingerprint.ts';
import type { BenchContext, Scenario } from './harness/context.ts';
import { lastJson, runNode } from './harness/child.ts';
import { buildCoreBundle } from './harness/core-bundle.ts';
import { FULL_LIBRARY, librarySize, seededLibraryCopy } from './harness/library-seed.ts';
import { row, type BenchRow } from './harness/report.ts';
import { summarize } from './harness/stats.ts';

interface ColdRun {
  mode: Mode;
  totalMs: number;
  openMs: number;
  importMs: number;
  /** CPU time (user + system) from the child's first line to the first page, imports included. */
  cpuMs: number;
  items: number;
  /** Idle RSS after the first page (core, bundled, raw). */
  rssMb: number | null;
}

/** Open + migrations check + first page of a million-asset library. */
const OPEN_GOAL_MS = 100;
/** The core as shipped, imports to first page: absolute and against raw better-sqlite3 with its import. */
const START_GOAL_MS = 150;
const START_GOAL_RATIO = 3;
const RSS_GOAL_MB = 200;

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

type Mode = 'atelier' | 'raw' | 'core' | 'bundled';
const MODES: readonly Mode[] = ['atelier', 'raw', 'core', 'bundled'];
/** Nothing listens there: the background refresh a start begins fails at once and changes nothing. */
const CLOSED_SERVICE = 'http://127.0.0.1:9';
const BENCH_KEY = 'bench-cold-start-key';

/** A data folder whose account database is the seeded file (hard-linked: no copy of 100,000 rows). */
function dataDirFor(ctx: BenchContext, file: string): string {
  const dataDir = join(ctx.workDir, 'cold-start-data');
  const target = accountDatabasePath(dataDir, { baseUrl: CLOSED_SERVICE, keyFingerprint: keyFingerprint(BENCH_KEY) });
  mkdirSync(dirname(target), { recursive: true });
  linkSync(file, target);
  return dataDir;
}

export const coldStart: Scenario = {
  id: 'cold-start',
  title: '5 cold start',
  async run(ctx: BenchContext) {
    const size = librarySize(ctx);
    const reps = ctx.quick ? 4 : 15;
    const file = seededLibraryCopy(ctx, size);
    const dataDir = dataDirFor(ctx, file);
    // The bundle's npm imports resolve from node_modules beside it, as out/main's do.
    symlinkSync(join(ctx.repoRoot, 'node_modules'), join(ctx.workDir, 'node_modules'), 'dir');
    const bundle = await buildCoreBundle(ctx.repoRoot, join(ctx.workDir, 'core-bundle'));
    const child = join(import.meta.dirname, 'children', 'cold-start.ts');
    const argsOf = (mode: Mode): string[] =>
      mode === 'core'
        ? [file, mode, dataDir, CLOSED_SERVICE, BENCH_KEY]
        : mode === 'bundled'
          ? [file, mode, dataDir, CLOSED_SERVICE, BENCH_KEY, bundle]
          : [file, mode];
    // No --expose-gc: the child turns the GC on itself once the start is timed (see its note).
    const run = async (mode: Mode): Promise<ColdRun> => lastJson<ColdRun>(await runNode(child, argsOf(mode)));
    // The unbundled start has no goal and is the slowest side: the smoke run (--quick) leaves it out.
    const modes = ctx.quick ? MODES.filter((mode) => mode !== 'core') : MODES;
    const canEvict = evictFromPageCache(file);
    const variants = canEvict ? (['evicted', 'warm'] as const) : (['warm'] as const);
    const rows: BenchRow[] = [];
    const details: Record<string, unknown> = { assets: size, reps };
    for (const variant of variants) {
      const runs: Record<Mode, ColdRun[]> = { atelier: [], raw: [], core: [], bundled: [] };
      // One untimed run each, so a first-open migration or stats write is not in the figures.
      for (const mode of modes) await run(mode);
      for (let i = 0; i < reps; i += 1) {
        // The order rotates, so no side always runs first after an eviction.
        const order = modes.map((_, k) => modes[(i + k) % modes.length]!);
        for (const mode of order) {
          if (variant === 'evicted') evictFromPageCache(file);
          const result = await run(mode);
          if (result.items !== Math.min(200, size))
            throw new Error(`${mode} cold start returned ${result.items} items`);
          runs[mode].push(result);
        }
      }
      const ours = summarize(runs.atelier.map((r) => r.totalMs));
      const raw = summarize(runs.raw.map((r) => r.totalMs));
      const whole = summarize(runs.core.map((r) => r.totalMs));
      const shipped = summarize(runs.bundled.map((r) => r.totalMs));
      const rawWhole = summarize(runs.raw.map((r) => r.importMs + r.totalMs));
      const shippedCpu = summarize(runs.bundled.map((r) => r.cpuMs));
      const rawCpu = summarize(runs.raw.map((r) => r.cpuMs));
      const rss = summarize(runs.bundled.flatMap((r) => r.rssMb ?? []));
      const rawRss = summarize(runs.raw.flatMap((r) => r.rssMb ?? []));
      details[variant] = Object.fromEntries(
        modes.map((mode) => [
          mode,
          {
            total: summarize(runs[mode].map((r) => r.totalMs)),
            open: summarize(runs[mode].map((r) => r.openMs)),
            import: summarize(runs[mode].map((r) => r.importMs)),
            cpu: summarize(runs[mode].map((r) => r.cpuMs)),
            rssMb: summarize(runs[mode].flatMap((r) => r.rssMb ?? [])),
          },
        ]),
      );
      const evicted = variant === 'evicted' ? 'file evicted from OS cache' : 'warm OS cache';
      const sizeNote = size !== FULL_LIBRARY ? { note: `${size.toLocaleString('en-US')} assets, not 1,000,000` } : {};
      const startMet =
        shipped.median === null || rawWhole.median === null
          ? null
          : shipped.median <= START_GOAL_MS && shipped.median / rawWhole.median <= START_GOAL_RATIO;
      rows.push(
        row({
          scenario: this.title,
          figure: `open + migrations check + first page, ${evicted}, median`,
          unit: 'ms',
          value: ours.median,
          baseline: raw.median,
          baselineName: 'raw better-sqlite3',
          goal: `≤ ${OPEN_GOAL_MS} ms`,
          met: ours.median === null ? null : ours.median <= OPEN_GOAL_MS,
          ...sizeNote,
          ...(variant === 'warm' && !canEvict
            ? { note: 'could not evict the file from the OS cache (no GNU dd): warm only' }
            : {}),
        }),
        row({
          scenario: this.title,
          figure: `whole core start as shipped (bundled like out/main): imports + createCore + first page via dispatch, ${evicted}, median`,
          unit: 'ms',
          value: shipped.median,
          baseline: rawWhole.median,
          baselineName: 'raw better-sqlite3, imports included',
          goal: `ratio ≤ ${START_GOAL_RATIO}, ≤ ${START_GOAL_MS} ms`,
          met: startMet,
          ...sizeNote,
        }),
      );
      rows.push(
        row({
          scenario: this.title,
          figure: `  same, CPU time of the process (user + system), ${evicted}, median`,
          unit: 'ms',
          value: shippedCpu.median,
          baseline: rawCpu.median,
          baselineName: 'raw better-sqlite3, imports included',
          goal: '',
          met: null,
        }),
      );
      if (modes.includes('core')) {
        rows.push(
          row({
            scenario: this.title,
            figure: `  same, from the unbundled sources (type stripping, one module per file)`,
            unit: 'ms',
            value: whole.median,
            baseline: rawWhole.median,
            baselineName: 'raw better-sqlite3, imports included',
            goal: '',
            met: null,
          }),
        );
      }
      if (variant === 'warm') {
        rows.push(
          row({
            scenario: this.title,
            figure: 'core RSS, idle after the first page (bundled core, after a GC), median',
            unit: 'MB',
            value: rss.median,
            baseline: rawRss.median,
            baselineName: 'bare node + better-sqlite3 on the same file',
            goal: `≤ ${RSS_GOAL_MB} MB`,
            met: rss.median === null ? null : rss.median <= RSS_GOAL_MB,
            ...sizeNote,
          }),
        );
      }
    }
    return { rows, details };
  },
};

// Scenarios 1 and 2: polling cost and detection latency for N image jobs submitted at once, Atelier's
// jobs engine against a naive poller (GET /jobs/{id} per job every 5 s), each on its own emulator with
// the same seed (same job ids, same durations). See polling-sim.ts for how virtual time is driven.
import type { BenchContext, Scenario } from './harness/context.ts';
import { row, type BenchRow } from './harness/report.ts';
import { max, median, percentile } from './harness/stats.ts';
import { POLL_INTERVAL_MS, runAtelier, runNaive, type PollRun } from './polling-sim.ts';

/** The emulator's GET /jobs page size (emulator/README.md), checked against what the runs observe. */
const DOCUMENTED_PAGE_SIZE = 50;

const REPS_FULL: Record<number, number> = { 1: 20, 10: 6, 100: 3, 500: 3 };
const REPS_QUICK: Record<number, number> = { 1: 4, 10: 2, 100: 1, 500: 1 };

interface PerN {
  jobs: number;
  runs: number;
  atelier: Figures;
  naive: Figures;
}

interface Figures {
  /** Status checks per poll tick (ticks with at least one check), median over runs. */
  perTick: number | null;
  /** The worst 5 s window over all runs. */
  worstTick: number | null;
  /** All GET /jobs and GET /jobs/{id} per completed job, median over runs. */
  perJob: number | null;
  detectionMedian: number | null;
  detectionP95: number | null;
  samples: number;
}

function figuresOf(runs: PollRun[], pooledDetection: number[]): Figures {
  return {
    perTick: median(
      runs.map((r) => {
        const active = r.statusChecksPerWindow.filter((n) => n > 0);
        return active.reduce((a, b) => a + b, 0) / Math.max(1, active.length);
      }),
    ),
    worstTick: max(runs.flatMap((r) => r.statusChecksPerWindow)),
    perJob: median(runs.map((r) => (r.requests.list + r.requests.single) / r.finishedOk)),
    detectionMedian: median(pooledDetection),
    detectionP95: percentile(pooledDetection, 95),
    samples: pooledDetection.length,
  };
}

const fraction = (ms: number | null): number | null => (ms === null ? null : ms / POLL_INTERVAL_MS);

export const polling: Scenario = {
  id: 'polling',
  title: '1 polling / 2 detection',
  async run(ctx: BenchContext) {
    const reps = ctx.quick ? REPS_QUICK : REPS_FULL;
    const perN: PerN[] = [];
    const allDetection = { atelier: [] as number[], naive: [] as number[] };
    let observedPageSize: number | null = null;
    for (const jobs of [1, 10, 100, 500]) {
      const atelierRuns: PollRun[] = [];
      const naiveRuns: PollRun[] = [];
      for (let rep = 0; rep < reps[jobs]!; rep += 1) {
        const seed = 1000 * jobs + rep;
        // Alternate which side goes first, so a slow spell of the machine does not always hit one side.
        let at: PollRun;
        let n: PollRun;
        if (rep % 2 === 0) {
          at = await runAtelier(jobs, seed, ctx.workDir);
          n = await runNaive(jobs, seed);
        } else {
          n = await runNaive(jobs, seed);
          at = await runAtelier(jobs, seed, ctx.workDir);
        }
        if (JSON.stringify([...at.jobIds].sort()) !== JSON.stringify([...n.jobIds].sort())) {
          throw new Error(
            `N=${jobs} seed ${seed}: the two emulators made different jobs; the comparison would be unfair`,
          );
        }
        if (at.finishedOk !== jobs || n.finishedOk !== jobs)
          throw new Error(`N=${jobs}: not every job finished successfully`);
        observedPageSize ??= at.listPageSize ?? n.listPageSize;
        atelierRuns.push(at);
        naiveRuns.push(n);
      }
      const atelierDetection = atelierRuns.flatMap((r) => r.detectionMs);
      const naiveDetection = naiveRuns.flatMap((r) => r.detectionMs);
      allDetection.atelier.push(...atelierDetection);
      allDetection.naive.push(...naiveDetection);
      perN.push({
        jobs,
        runs: atelierRuns.length,
        atelier: figuresOf(atelierRuns, atelierDetection),
        naive: figuresOf(naiveRuns, naiveDetection),
      });
      ctx.log(`N=${jobs}: ${atelierRuns.length} run(s) each side`);
    }
    const pageSize = observedPageSize ?? DOCUMENTED_PAGE_SIZE;
    const rows: BenchRow[] = [];
    for (const p of perN) {
      const bound = Math.ceil(p.jobs / pageSize) + 1;
      const ratio = p.atelier.perTick !== null && p.naive.perTick ? p.atelier.perTick / p.naive.perTick : null;
      const withinBound = p.atelier.worstTick !== null && p.atelier.worstTick <= bound;
      rows.push(
        row({
          scenario: '1 polling',
          figure: `(a) status checks per tick, N=${p.jobs} (worst tick ${p.atelier.worstTick ?? '—'})`,
          unit: '',
          value: p.atelier.perTick,
          baseline: p.naive.perTick,
          baselineName: 'naive poller',
          goal: p.jobs === 100 ? `ratio ≤ 0.1; worst ≤ ${bound}` : `worst ≤ ${bound}`,
          met: ratio === null ? null : withinBound && (p.jobs !== 100 || ratio <= 0.1),
        }),
      );
    }
    for (const p of perN) {
      const floor = Math.ceil(25_000 / POLL_INTERVAL_MS);
      rows.push(
        row({
          scenario: '1 polling',
          figure: `(b) service requests per completed job, N=${p.jobs}`,
          unit: '',
          value: p.atelier.perJob,
          baseline: p.naive.perJob,
          baselineName: 'naive poller',
          // Issue 17: below ~25 jobs the floor is structural, so the figure is reported, not a goal.
          goal: p.jobs < 100 ? '— (reported)' : '≤ 1.3',
          met: p.atelier.perJob === null || p.jobs < 100 ? null : p.atelier.perJob <= 1.3,
          ...(p.jobs < 100
            ? {
                note:
                  `with 15–30 s jobs and 5 s polling a job is checked about ${floor} times; below ~${pageSize / 2} jobs the ` +
                  'batched listing cannot spread that over enough jobs to reach 1.3 (floor ≈ ticks ÷ N + 1 detail fetch)',
              }
            : {}),
        }),
      );
    }
    for (const p of perN) {
      rows.push(
        row({
          scenario: '2 detection',
          figure: `latency ÷ poll interval, median, N=${p.jobs} (${p.atelier.samples} jobs)`,
          unit: '',
          value: fraction(p.atelier.detectionMedian),
          baseline: fraction(p.naive.detectionMedian),
          baselineName: 'naive poller',
          goal: '≤ 0.6',
          met: p.atelier.detectionMedian === null ? null : p.atelier.detectionMedian / POLL_INTERVAL_MS <= 0.6,
        }),
      );
    }
    const pooled = { atelier: percentile(allDetection.atelier, 95), naive: percentile(allDetection.naive, 95) };
    rows.push(
      row({
        scenario: '2 detection',
        figure: `latency ÷ poll interval, p95, all N (${allDetection.atelier.length} jobs)`,
        unit: '',
        value: fraction(pooled.atelier),
        baseline: fraction(pooled.naive),
        baselineName: 'naive poller',
        goal: '',
        met: null,
      }),
      row({
        scenario: '2 detection',
        figure: `latency ÷ poll interval, median, all N (${allDetection.atelier.length} jobs)`,
        unit: '',
        value: fraction(median(allDetection.atelier)),
        baseline: fraction(median(allDetection.naive)),
        baselineName: 'naive poller',
        goal: '≤ 0.6',
        met: median(allDetection.atelier) === null ? null : median(allDetection.atelier)! / POLL_INTERVAL_MS <= 0.6,
      }),
    );
    return { rows, details: { pollIntervalMs: POLL_INTERVAL_MS, listPageSize: pageSize, perN } };
  },
};

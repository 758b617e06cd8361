// Scenario 8: planning a 1,000-row batch CSV (issue 33): read (csv-parse), expand the {a|b}
// wildcards, build each job's body from its cells and check it with the rules, refused rows
// worded. Baseline, in the same loop: the floor of the same work — csv-parse's records (its Node
// build, on Node's own Buffer: the contract's browser build turned strings into bytes in JS, see
// batch-source.ts) and one validate() per row on a body built by hand, no wildcards, no columns,
// no messages.
import { parse } from 'csv-parse/sync';
import { planBatch } from '../src-main/contract/batch/batch-plan.ts';
import { readBatchCsv } from '../src-main/contract/batch/batch-source.ts';
import { validate } from '../src-main/contract/rules/index.ts';
import type { BenchContext, Scenario } from './harness/context.ts';
import { row } from './harness/report.ts';
import { summarize } from './harness/stats.ts';
import { timeInterleaved } from './harness/timing.ts';

const ROWS = 1_000;
const GOAL_MS = 50;
const RATIOS = ['1:1', '16:9', '9:16', '4:3'];

/** 1,000 rows of the columns people use, a few with a wildcard of one choice and a few refused. */
function csvText(): string {
  const lines = ['prompt,model,aspect-ratio,num-images,seed,option:imageSize'];
  for (let i = 0; i < ROWS; i += 1) {
    const model = i % 3 === 0 ? 'imagea-2' : 'imagea';
    const prompt = i % 10 === 0 ? `"a {red} fox, study ${i}"` : `"a fox in the snow, study ${i}"`;
    const count = i % 97 === 0 ? 9 : 1 + (i % 4);
    lines.push(`${prompt},${model},${RATIOS[i % RATIOS.length]},${count},,${model === 'imagea-2' ? '2K' : ''}`);
  }
  return lines.join('\n');
}

export const batchPlan: Scenario = {
  id: 'batch-plan',
  title: '8 batch plan',
  run(ctx: BenchContext) {
    const text = csvText();
    // 20 untimed rounds first, as the harness's default: a 1,000-row plan takes ~20 calls to reach
    // V8's optimised code (the first calls spend 50–110 ms of CPU, most of it compiling).
    const reps = ctx.quick ? 20 : 40;
    let planned = 0;
    // CPU time of the process per call beside the wall time: on a shared machine the wall time
    // swings with the load, the work far less (GC threads included).
    const cpu = { atelier: [] as number[], baseline: [] as number[] };
    const withCpu = (side: keyof typeof cpu, work: () => void) => () => {
      const start = process.cpuUsage();
      work();
      const used = process.cpuUsage(start);
      cpu[side].push((used.user + used.system) / 1000);
    };
    const sides = {
      atelier: withCpu('atelier', () => {
        const plan = planBatch(readBatchCsv(text));
        planned = plan.jobs.length + plan.refused.length;
      }),
      baseline: withCpu('baseline', () => {
        const records = parse(text, { bom: true }) as string[][];
        for (const r of records.slice(1)) {
          const body: Record<string, unknown> = {
            modelID: r[1],
            prompt: r[0],
            aspectRatio: r[2],
            numImages: Number(r[3]),
          };
          validate({ kind: 'image', body });
        }
      }),
    };
    // The first call of each side in this process (what a user's first plan of a session costs).
    const first = (work: () => void): number => {
      const start = performance.now();
      work();
      return performance.now() - start;
    };
    const cold = { atelier: first(sides.atelier), baseline: first(sides.baseline) };
    const samples = timeInterleaved({ reps, warmup: 20, sides });
    const atelier = summarize(samples.atelier);
    const baseline = summarize(samples.baseline);
    // The warm-up rounds are in `cpu` too: only the timed ones count.
    const cpuAtelier = summarize(cpu.atelier.slice(-reps));
    const cpuBaseline = summarize(cpu.baseline.slice(-reps));
    ctx.log(
      `${planned} jobs planned per run; median ${atelier.median?.toFixed(1)} ms vs ${baseline.median?.toFixed(1)} ms`,
    );
    return Promise.resolve({
      rows: [
        row({
          scenario: this.title,
          figure: `${ROWS}-row CSV: read, expand, build, validate, word refusals (planBatch), median`,
          unit: 'ms',
          value: atelier.median,
          baseline: baseline.median,
          baselineName: 'csv-parse (Node build) + validate() per row',
          goal: `≤ ${GOAL_MS} ms`,
          met: atelier.median === null ? null : atelier.median <= GOAL_MS,
        }),
        row({
          scenario: this.title,
          figure: '  same, CPU time of the process (user + system), median',
          unit: 'ms',
          value: cpuAtelier.median,
          baseline: cpuBaseline.median,
          baselineName: 'csv-parse (Node build) + validate() per row',
          goal: '—',
          met: null,
        }),
        row({
          scenario: this.title,
          figure: '  same, the first call in the process (code not yet optimised)',
          unit: 'ms',
          value: cold.atelier,
          baseline: cold.baseline,
          baselineName: 'csv-parse (Node build) + validate() per row',
          goal: '— (reported)',
          met: null,
        }),
      ],
      details: { rows: ROWS, planned, atelier, baseline, cpu: { atelier: cpuAtelier, baseline: cpuBaseline }, cold },
    });
  },
};

// Scenario 8: planning a 1,000-row batch CSV (issue 33): read (csv-parse), expand the {a|b}
// wildcards, build each job's body from its cells and check it with the rules, refused rows
// worded. Baseline, in the same loop: the floor of the same work — csv-parse's records and one
// validate() per row on a body built by hand, no wildcards, no columns, no messages.
import { parse } from 'csv-parse/browser/esm/sync';
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
    const reps = ctx.quick ? 10 : 40;
    let planned = 0;
    const samples = timeInterleaved({
      reps,
      warmup: 3,
      sides: {
        atelier: () => {
          const plan = planBatch(readBatchCsv(text));
          planned = plan.jobs.length + plan.refused.length;
        },
        baseline: () => {
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
        },
      },
    });
    const atelier = summarize(samples.atelier);
    const baseline = summarize(samples.baseline);
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
          baselineName: 'csv-parse + validate() per row',
          goal: `≤ ${GOAL_MS} ms`,
          met: atelier.median === null ? null : atelier.median <= GOAL_MS,
        }),
      ],
      details: { rows: ROWS, planned, atelier, baseline },
    });
  },
};

// Scenario 7: the jobs engine on a bad network (issue 28). The same seeded plan of images over every
// public model, videos over every video model and upscales is run by the app's core in a child
// process twice, side by side: through the fault proxy with issue 28's mix (5 % 503, 2 % resets,
// 2 % 429 Retry-After: 2, 0–300 ms, 1 % of media cut) and through the same proxy with no faults.
// The figure is service requests (API, not media) per finished job; the soak's checks ride along.
// No SIGKILL here (the soak test has it): the two sides differ by the network alone.
import { BAD_NETWORK, NO_FAULTS } from '../emulator/fault-proxy.ts';
import { judgeSoak, type SoakVerdict } from '../src-main/core/test-support/fault-soak/soak-checks.ts';
import { CI_SOAK, type SoakMixSize } from '../src-main/core/test-support/fault-soak/soak-plan.ts';
import { runSoak } from '../src-main/core/test-support/fault-soak/soak-run.ts';
import type { BenchContext, Scenario } from './harness/context.ts';
import { row } from './harness/report.ts';

/** --quick: one job per model family at most, a short span; the full run: the CI soak's mix. */
const QUICK_SOAK: SoakMixSize = { images: 7, videos: 3, upscales: 1, spanMs: 20_000 };

async function side(seed: number, size: SoakMixSize, faults: boolean, quick: boolean): Promise<SoakVerdict> {
  const run = await runSoak({
    seed,
    size,
    mix: faults ? BAD_NETWORK : NO_FAULTS,
    timeScale: quick ? 4 : 3,
    jobSpeed: quick ? 4 : 2,
    kill: null,
    settleLimitMs: quick ? 60_000 : 150_000,
  });
  try {
    return judgeSoak(run);
  } finally {
    run.cleanUp();
  }
}

export const badNetwork: Scenario = {
  id: 'bad-network',
  title: '7 bad network',
  async run(ctx: BenchContext) {
    const size = ctx.quick ? QUICK_SOAK : CI_SOAK;
    const seed = 2807;
    const jobs = size.images + size.videos + size.upscales;
    ctx.log(`${jobs} jobs over ${size.spanMs / 1000} s, with and without faults, side by side`);
    // Side by side: request counts are the figure, and each side has its own emulator, proxy and core.
    const [faulty, clean] = await Promise.all([side(seed, size, true, ctx.quick), side(seed, size, false, ctx.quick)]);
    const f = faulty.figures;
    const c = clean.figures;
    const mixWords = '5 % 503, 2 % reset, 2 % 429, 0–300 ms, 1 % media cut';
    return {
      rows: [
        row({
          scenario: '7 bad network',
          figure: `service requests per finished job, ${jobs} jobs (${mixWords})`,
          unit: '',
          value: f.requestsPerFinishedJob,
          baseline: c.requestsPerFinishedJob,
          baselineName: 'same jobs, no faults',
          goal: '',
          met: null,
        }),
        row({
          scenario: '7 bad network',
          figure: 'finished jobs noticed, p95 ÷ advised interval (5 s images, 8 s videos)',
          unit: '',
          value: f.notice.p95Ratio,
          baseline: c.notice.p95Ratio,
          baselineName: 'same jobs, no faults',
          goal: '≤ 2',
          met: f.notice.p95Ratio <= 2,
        }),
        row({
          scenario: '7 bad network',
          figure: 'findings: wrong or missing jobs, unsent requests, double list reads, negative counts',
          unit: '',
          value: faulty.findings.length,
          baseline: clean.findings.length,
          baselineName: 'same jobs, no faults',
          ratio: null,
          goal: '0',
          met: faulty.findings.length === 0 && clean.findings.length === 0,
        }),
      ],
      details: { faulty, clean },
    };
  },
};

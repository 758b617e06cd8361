// The full fault soak of issue 28 from the command line: ~100 jobs (67 images, 25 videos, 8 upscales)
// over 150 s through the bad network, a SIGKILL while three answers are held, a restart, the checks.
// Usage: node src-main/core/test-support/fault-soak/soak-main.ts [--seed N] [--ci] [--no-faults] [--keep]
// Prints the figures and every finding; exits 1 when anything was found.
import { parseArgs } from 'node:util';
import { BAD_NETWORK, NO_FAULTS } from '../../../../emulator/fault-proxy.ts';
import { judgeSoak } from './soak-checks.ts';
import { CI_SOAK, FULL_SOAK } from './soak-plan.ts';
import { runSoak } from './soak-run.ts';

const { values } = parseArgs({
  options: {
    seed: { type: 'string', default: '2801' },
    ci: { type: 'boolean', default: false },
    'no-faults': { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
  },
});
const seed = Number(values.seed);
if (!Number.isInteger(seed) || seed < 0) {
  console.error('--seed: a non-negative integer');
  process.exit(2);
}
const run = await runSoak({
  seed,
  size: values.ci ? CI_SOAK : FULL_SOAK,
  mix: values['no-faults'] ? NO_FAULTS : BAD_NETWORK,
  // The clock runs 2–3× (the 150 s take 75 s), jobs twice as fast again (a video 1–2 min of that clock).
  timeScale: values.ci ? 3 : 2,
  jobSpeed: 2,
  kill: { held: 3 },
  settleLimitMs: values.ci ? 150_000 : 240_000,
  keepDataDir: values.keep,
});
const { figures, findings } = judgeSoak(run);
console.log(JSON.stringify(figures, null, 2));
console.log(`${findings.length} findings${findings.length ? ':' : ''}`);
for (const finding of findings) console.log(`- ${finding}`);
console.log(`wall time ${(run.wallMs / 1000).toFixed(0)} s${values.keep ? '' : ''}`);
run.cleanUp();
process.exit(findings.length === 0 ? 0 : 1);

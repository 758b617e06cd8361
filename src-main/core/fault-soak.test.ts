// Issue 28's "left running on a bad network", small enough for CI: the app's core in a child process
// submits images over every public model, videos over every video model and upscales through a
// seeded fault proxy (503, resets, 429 Retry-After: 2, 0–300 ms, cut media), is SIGKILLed while three
// submissions' answers are held, and starts again on the same data folder. The run is then judged
// against the service's own records (test-support/fault-soak/soak-checks.ts). The full ~100-job run:
// `node src-main/core/test-support/fault-soak/soak-main.ts`.
import { describe, expect, it } from 'vitest';
import { BAD_NETWORK } from '../../emulator/fault-proxy.ts';
import { judgeSoak } from './test-support/fault-soak/soak-checks.ts';
import { CI_SOAK } from './test-support/fault-soak/soak-plan.ts';
import { runSoak } from './test-support/fault-soak/soak-run.ts';

describe('left running on a bad network', () => {
  it('attributes every job right, resends what never arrived, keeps checking, across a SIGKILL', async () => {
    const run = await runSoak({
      seed: 2801,
      size: CI_SOAK,
      mix: BAD_NETWORK,
      // 72 s of the emulator's clock in 24 s; reconciliation's 3-minute windows close within a minute.
      timeScale: 3,
      jobSpeed: 2,
      kill: { held: 3 },
      settleLimitMs: 150_000,
    });
    try {
      const { figures, findings } = judgeSoak(run);
      console.log(`[soak] ${JSON.stringify(figures)}\n[soak] ${findings.length} findings:\n${findings.join('\n')}`);
      expect(run.heldAtKill).toHaveLength(3);
      expect(figures.submissions).toBe(CI_SOAK.images + CI_SOAK.videos + CI_SOAK.upscales);
      expect(findings).toEqual([]);
    } finally {
      run.cleanUp();
    }
  }, 290_000);
});

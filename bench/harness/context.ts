// What every scenario receives, and what it hands back to bench/main.ts.
import type { BenchRow } from './report.ts';

export interface BenchContext {
  quick: boolean;
  /** A fresh folder for this scenario's files (removed at the end of the run). */
  workDir: string;
  /** Kept between runs (seeded libraries): `.tmp/bench-cache` at the repository root. */
  cacheDir: string;
  repoRoot: string;
  log(message: string): void;
}

export interface ScenarioResult {
  rows: BenchRow[];
  details?: unknown;
}

export interface Scenario {
  id: string;
  title: string;
  run(ctx: BenchContext): Promise<ScenarioResult>;
}

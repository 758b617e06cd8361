// The engine's tunables with their defaults, and where each loop's "no request before" time is
// kept (the database, so a Retry-After still counts after a restart).
import type { AccountDb } from '../db/account-db.ts';
import type { EngineTime } from '../host/time.ts';
import { DEFAULT_FINISH_NOTIFIER, type FinishNotifierOptions } from './finish-notifier.ts';
import { DEFAULT_POLL_ROUND, type PollRoundOptions } from './poll-round.ts';
import { DEFAULT_TRAINING, type TrainingOptions } from './training-watcher.ts';
import { DEFAULT_LOOP_OPTIONS, type GateStore, type LoopOptions } from './wall-clock-loop.ts';

export interface JobsEngineOptions {
  loop: LoopOptions;
  round: PollRoundOptions;
  notify: FinishNotifierOptions;
  training: TrainingOptions;
  /** A lost POST answer is reconciled this long after (the service may still be writing the job). */
  reconcileDelayMs: number;
  /** jobs:list shows finished jobs this far back (live and unknown ones always). */
  recentMs: number;
}

/** What a caller may give: any group in part. */
export type JobsEngineOverrides = {
  [K in keyof JobsEngineOptions]?: Partial<JobsEngineOptions[K]> | JobsEngineOptions[K];
};

export function engineOptions(opt: JobsEngineOverrides = {}): JobsEngineOptions {
  return {
    loop: { ...DEFAULT_LOOP_OPTIONS, ...opt.loop },
    round: { ...DEFAULT_POLL_ROUND, ...opt.round },
    notify: { ...DEFAULT_FINISH_NOTIFIER, ...opt.notify },
    training: { ...DEFAULT_TRAINING, ...opt.training },
    reconcileDelayMs: 5_000,
    recentMs: 7 * 24 * 60 * 60_000,
    ...(opt.reconcileDelayMs !== undefined ? { reconcileDelayMs: opt.reconcileDelayMs as number } : {}),
    ...(opt.recentMs !== undefined ? { recentMs: opt.recentMs as number } : {}),
  };
}

const GATE_KEY = { jobs: 'engine.jobs.notBefore', training: 'engine.training.notBefore' } as const;

export function gateStore(cache: AccountDb, loop: keyof typeof GATE_KEY, time: EngineTime): GateStore {
  const key = GATE_KEY[loop];
  return {
    load: () => {
      const value = cache.syncState.get<number>(key)?.value;
      return typeof value === 'number' ? value : 0;
    },
    save: (until) => cache.syncState.set(key, until, time.now()),
  };
}

// Builds the jobs engine of one open account (core/account-services.ts starts and stops it):
// the account's cache and client, the demo's faster training checks, the Pause setting.
import type { AccountSession } from '../account/types.ts';
import type { JobListGate } from '../api/job-list-gate.ts';
import type { EventBus } from '../events.ts';
import type { Notifier } from '../host/notifier.ts';
import type { PowerSignals } from '../host/power-signals.ts';
import type { EngineTime } from '../host/time.ts';
import type { Settings } from '../settings/settings.ts';
import type { BatchBudget } from './batch-runner.ts';
import { createJobsEngine, type EngineLogger, type JobsEngine } from './engine.ts';
import type { OutputAsset } from './outputs.ts';
import { jobsServiceFromClient } from './service-port.ts';
import { scaledTraining } from './training-watcher.ts';
import { DEMO_TIME_SCALE } from '../../contract/training-time.ts';

export interface AccountJobsDeps {
  events: EventBus;
  settings: Settings;
  notifier: Notifier;
  power: PowerSignals;
  logger: EngineLogger;
  /** Every finished job's new outputs (the caller decides what the library does with them). */
  onOutputs(assets: OutputAsset[]): void;
  time?: EngineTime;
  /** The account's one gate for GET /jobs, shared with its library sync. */
  listGate?: JobListGate;
  /** The credit caps a batch asks before each item (core/budgets); none: no cap. */
  budget?: BatchBudget;
}

/**
 * The demo's service runs its clock DEMO_TIME_SCALE times faster (a training takes about a minute),
 * so its training runs the service's schedule that much faster: checked every 15 s instead of every
 * 5 minutes, and expected, and said to take, 60–75 s instead of 20–25 minutes.
 */
const DEMO_ENGINE_OPTIONS = { training: scaledTraining(DEMO_TIME_SCALE) };

export function createAccountJobsEngine(session: AccountSession, deps: AccountJobsDeps): JobsEngine {
  const { settings } = deps;
  return createJobsEngine({
    ...(session.mode === 'demo' ? { options: DEMO_ENGINE_OPTIONS } : {}),
    cache: session.cache,
    // Background status checks try once; the engine's own backoff decides when to try again.
    service: jobsServiceFromClient(session.client, session.client.withRetry({ maxAttempts: 1 })),
    events: deps.events,
    notifier: deps.notifier,
    power: deps.power,
    logger: deps.logger,
    ...(deps.time ? { time: deps.time } : {}),
    preferences: {
      pollingPaused: () => settings.get().pollingPaused,
      onPollingPausedChange: (listener) =>
        settings.onChange((values, changed) => {
          if (changed.includes('pollingPaused')) listener(values.pollingPaused);
        }),
    },
    onOutputs: deps.onOutputs,
    ...(deps.listGate ? { listGate: deps.listGate } : {}),
    ...(deps.budget ? { budget: deps.budget } : {}),
  });
}

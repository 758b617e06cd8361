// Builds the jobs engine of one open account (core/account-services.ts starts and stops it):
// the account's cache and client, the demo's faster training checks, the Pause setting.
import type { AccountSession } from '../account/types.ts';
import type { EventBus } from '../events.ts';
import type { Notifier } from '../host/notifier.ts';
import type { PowerSignals } from '../host/power-signals.ts';
import type { EngineTime } from '../host/time.ts';
import type { Settings } from '../settings/settings.ts';
import { createJobsEngine, type EngineLogger, type JobsEngine } from './engine.ts';
import type { OutputAsset } from './outputs.ts';
import { jobsServiceFromClient } from './service-port.ts';

export interface AccountJobsDeps {
  events: EventBus;
  settings: Settings;
  notifier: Notifier;
  power: PowerSignals;
  logger: EngineLogger;
  /** Every finished job's new outputs (the caller decides what the library does with them). */
  onOutputs(assets: OutputAsset[]): void;
  time?: EngineTime;
}

/**
 * The demo's service runs its clock about 20 times faster (a training takes about a minute), so its
 * training is checked every 15 s instead of every 5 minutes: a model becomes usable when it is ready.
 */
const DEMO_ENGINE_OPTIONS = {
  training: { intervalMs: 15_000, slowAfterMs: 5 * 60_000, slowIntervalMs: 60_000 },
};

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
  });
}

// Ties connectivity (core/host/service-reach.ts) to the open account: its service is checked when
// it opens, with a cheap request (GET /presets: small, and it proves the key's
// address answers); the jobs engine and the refresh resume when it answers again; and paid work
// (a generation, an upscale, a resend, a training) is refused, before any job row is written,
// while it cannot be reached: nothing that costs money is queued silently.
import type { AccountManager } from './account/account-manager.ts';
import type { AccountSession } from './account/types.ts';
import type { AccountServices } from './account-services.ts';
import type { HostInfo } from './context.ts';
import type { ServiceReach } from './host/service-reach.ts';

/** The channels that spend the user's credits: refused while the service cannot be reached. */
export const PAID_CHANNELS = [
  'jobs:submit',
  'jobs:resubmit',
  'training:start',
  'batches:start',
  'batches:resume',
  'experiments:start',
] as const;

type PaidChannel = (typeof PAID_CHANNELS)[number];
type AnyHandler = (args: never) => unknown;

/** Wraps the paid channels' handlers: each asks `reach.refusal()` first. */
export function refuseUnreachablePaidWork<H extends Record<PaidChannel, AnyHandler>>(
  handlers: H,
  reach: ServiceReach,
): H {
  const gated = { ...handlers };
  for (const channel of PAID_CHANNELS) {
    const handler = handlers[channel] as (args: unknown) => unknown;
    (gated as Record<string, unknown>)[channel] = async (args: unknown) => {
      const refusal = await reach.refusal();
      if (refusal) throw refusal;
      return handler(args);
    };
  }
  return gated;
}

export interface FollowDeps {
  host: HostInfo;
  accounts: AccountManager;
  services: AccountServices;
  reach: ServiceReach;
  logError(message: string, error: unknown): void;
}

/** Follows the open account's service; returns the function that stops. The CLI runs one command: it does not watch. */
export function followServiceReach(deps: FollowDeps): { stop(): void; back(): void } {
  const { accounts, services, reach } = deps;
  const watch = deps.host.kind !== 'cli';
  const follow = (session: AccountSession | null): void => {
    if (!watch || !session) return reach.follow(null);
    // A second attempt a moment later: the first after an outage may meet a socket the service closed.
    const probe = session.client.withRetry({ maxAttempts: 2, baseDelayMs: 250, maxDelayMs: 250 });
    reach.follow(() => probe.listPresets());
  };
  const stopOpened = accounts.onSessionOpened((session) => follow(session));
  const stopClosing = accounts.onSessionClosing(() => reach.follow(null));
  follow(accounts.current());
  return {
    stop() {
      stopOpened();
      stopClosing();
      reach.close();
    },
    /** The service answers again: check jobs now and refresh the cache, rather than wait out their backoff. */
    back() {
      if (!watch || !accounts.current()) return;
      services
        .ready()
        .then(() => services.jobs().checkNow())
        .catch((error: unknown) => deps.logError('Checking jobs after the service came back failed', error));
      try {
        services
          .syncer()
          .refresh('all')
          .catch((error: unknown) => deps.logError('Refreshing after the service came back failed', error));
      } catch (error) {
        deps.logError('Refreshing after the service came back failed', error);
      }
    },
  };
}

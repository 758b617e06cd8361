// Connectivity measured, not assumed. Every attempt of the API client reports whether the service
// answered (`report`); the open account's service is checked at once when it opens (a cheap
// request, `follow`), checked again on its own with backoff while it cannot be reached (a few
// seconds at first, then at most every 30 s), and at once when the OS says the network is back or
// the machine wakes. Each change is one 'service:reach' event; `back` runs when it answers again
// (the jobs engine and the refresh resume then). Paid work asks `refusal()` before it is sent.
import { AppError } from '../../contract/errors.ts';
import type { ServiceReachInfo } from '../../contract/ipc/sync.ts';
import type { EventBus } from '../events.ts';
import type { PowerSignals } from './power-signals.ts';

export type ReachReport = (reached: boolean) => void;

/** A cheap request to the service; its outcome reaches `report` through the client. */
export type ReachProbe = () => Promise<unknown>;

/** Between checks while the service cannot be reached: a few seconds at first, capped at 30 s. */
export const REACH_RETRY_DELAYS_MS: readonly number[] = [2_000, 4_000, 8_000, 15_000, 30_000];

export const UNREACHABLE_REFUSAL =
  "Atelier can't reach the service, so nothing was sent and nothing was charged. Try again once the status bar says Online.";

export interface ServiceReachOptions {
  events: Pick<EventBus, 'emit'>;
  power?: PowerSignals;
  /** Runs when the service answers again after it could not be reached. */
  onBack?: () => void;
  delaysMs?: readonly number[];
  timers?: {
    setTimeout(fn: () => void, ms: number): unknown;
    clearTimeout(handle: unknown): void;
  };
}

export interface ServiceReach {
  /** Given to the API client: told after every attempt. */
  report: ReachReport;
  /** What is known now; `reachable` is null until the open account's first outcome. */
  info(): ServiceReachInfo;
  /** Follows the open account's service (checked now), or stops following (null: no account, or a host that does not watch). */
  follow(probe: ReachProbe | null): void;
  /** Checks now (the renderer's `online` event, Try again); resolves with what is known after. */
  check(): Promise<ServiceReachInfo>;
  /** The error paid work is refused with while the service cannot be reached (checked again first); null when it can be sent. */
  refusal(): Promise<AppError | null>;
  close(): void;
}

const defaultTimers = {
  setTimeout: (fn: () => void, ms: number): unknown => setTimeout(fn, ms).unref(),
  clearTimeout: (handle: unknown): void => clearTimeout(handle as NodeJS.Timeout),
};

export function createServiceReach(options: ServiceReachOptions): ServiceReach {
  const delays = options.delaysMs ?? REACH_RETRY_DELAYS_MS;
  const timers = options.timers ?? defaultTimers;
  let reachable: boolean | null = null;
  let probe: ReachProbe | null = null;
  /** Bumped by `follow`: a check of the previous account's service changes nothing. */
  let generation = 0;
  let timer: unknown = null;
  let attempt = 0;
  let checking: Promise<ServiceReachInfo> | null = null;

  const info = (): ServiceReachInfo => ({ reachable });

  const cancelRetry = (): void => {
    if (timer !== null) timers.clearTimeout(timer);
    timer = null;
  };

  const scheduleRetry = (): void => {
    if (timer !== null || probe === null) return;
    const delay = delays[Math.min(attempt, delays.length - 1)] ?? 30_000;
    attempt += 1;
    timer = timers.setTimeout(() => {
      timer = null;
      void check();
    }, delay);
  };

  const report: ReachReport = (reached) => {
    const before = reachable;
    if (reached) {
      cancelRetry();
      attempt = 0;
    } else {
      scheduleRetry();
    }
    if (reached === before) return;
    reachable = reached;
    options.events.emit('service:reach', { reachable: reached });
    if (reached && before === false) options.onBack?.();
  };

  const check = (): Promise<ServiceReachInfo> => {
    if (probe === null) return Promise.resolve(info());
    if (checking) return checking;
    const asked = generation;
    const run = probe;
    checking = run()
      .then(
        () => {
          if (asked === generation) report(true);
        },
        (error: unknown) => {
          if (asked !== generation) return;
          // The client reports each attempt; this covers a probe that failed before sending.
          const code = error instanceof AppError ? error.info.code : null;
          if (code === 'network' || code === 'offline') report(false);
        },
      )
      .then(info)
      .finally(() => {
        checking = null;
      });
    return checking;
  };

  const stops = options.power
    ? [
        options.power.onOnlineChange((online) => {
          if (online) void check();
        }),
        options.power.onResume(() => void check()),
      ]
    : [];

  return {
    report,
    info,
    follow(next) {
      generation += 1;
      cancelRetry();
      attempt = 0;
      checking = null;
      reachable = null;
      probe = next;
      if (next) void check();
    },
    check,
    async refusal() {
      if (probe === null || reachable !== false) return null;
      const now = await check();
      return now.reachable === false ? new AppError({ code: 'offline', message: UNREACHABLE_REFUSAL }) : null;
    },
    close() {
      generation += 1;
      cancelRetry();
      probe = null;
      stops.splice(0).forEach((stop) => stop());
    },
  };
}

// The connection facts the frame owns: the browser's online flag and whether the service asked us to slow
// down: a 429 on the last refresh (sync status), or on background work — checking jobs or training,
// uploading — ('service:rate-limited'), each until its wait passes. Reachability of the service itself is
// service-reach.svelte.ts; the status bar combines both.
import { accountBound } from '../account-scope.ts';
import type { SyncStatusInfo } from '@contract/ipc/sync.ts';
import {
  canCheckNow,
  extendWait,
  rateLimitText,
  rateLimitedUntil,
  replaceWait,
  withoutChecks,
  type RateLimitWaits,
} from '../frame/rate-limit.ts';
import { invoke, on } from '../ipc.ts';
import { account } from './account.svelte.ts';

/** When a 429 on a refresh names no wait. */
const DEFAULT_WAIT_MS = 60_000;

class ConnectionState {
  online = $state(typeof navigator === 'undefined' ? true : navigator.onLine);
  /** Epoch ms until which each kind of work waits, as the service asked. */
  waits = $state.raw<RateLimitWaits>({});
  #now = $state(Date.now());

  constructor() {
    accountBound<ConnectionState>(this, () => ({ waits: {} }), { reload: () => this.load() });
  }

  /** Epoch ms until which the service asked us to wait (the latest of all waits); null when not limited. */
  readonly rateLimitedUntil = $derived(rateLimitedUntil(this.waits, this.#now));
  readonly rateLimited = $derived(this.rateLimitedUntil !== null);
  /** "Rate limited · checking jobs again in 40 s"; null when not limited. */
  readonly rateLimitText = $derived(rateLimitText(this.waits, this.#now));
  /** "Check now" ends the wait of checking jobs or training (the service may still refuse again). */
  readonly canCheckNow = $derived(canCheckNow(this.waits, this.#now));
  readonly isDemo = $derived(account.isDemo);
  /** Without the service's reachability (service-reach.svelte.ts), which the status bar adds. */
  readonly status: 'online' | 'offline' | 'rate-limited' = $derived(
    !this.online ? 'offline' : this.rateLimited ? 'rate-limited' : 'online',
  );

  #apply(status: SyncStatusInfo): void {
    const error = status.lastError;
    this.#now = Date.now();
    const until = error?.code === 'rate_limited' ? this.#now + (error.retryAfterMs ?? DEFAULT_WAIT_MS) : null;
    this.waits = replaceWait(this.waits, 'library', until);
  }

  /** Drops the wait the service asked for and checks jobs and training at once. */
  async checkNow(): Promise<void> {
    const result = await invoke('jobs:check-now', undefined);
    if (result.ok) this.waits = withoutChecks(this.waits);
  }

  async load(): Promise<void> {
    const result = await invoke('sync:status');
    if (result.ok) this.#apply(result.value);
  }

  listen(): () => void {
    const up = () => (this.online = true);
    const down = () => (this.online = false);
    window.addEventListener('online', up);
    window.addEventListener('offline', down);
    const stops = [
      on('sync:status-changed', (status) => {
        if (!status.running) this.#apply(status);
      }),
      on('service:rate-limited', ({ source, retryAfterMs }) => {
        this.#now = Date.now();
        this.waits = extendWait(this.waits, source, this.#now + retryAfterMs);
      }),
    ];
    // Counts the wait down while limited, so the words stay true and "rate limited" ends when it is over.
    const tick = setInterval(() => {
      if (this.rateLimited) this.#now = Date.now();
    }, 1000);
    return () => {
      window.removeEventListener('online', up);
      window.removeEventListener('offline', down);
      stops.forEach((stop) => stop());
      clearInterval(tick);
    };
  }
}

export const connection = new ConnectionState();

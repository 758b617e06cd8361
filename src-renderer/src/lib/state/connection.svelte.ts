// The connection facts the frame owns: the browser's online flag and whether the service asked us to slow
// down (a 429 on the last refresh, until its Retry-After passes). Reachability of the service itself is
// service-reach.svelte.ts; the status bar combines both.
import type { SyncStatusInfo } from '@contract/ipc/sync.ts';
import { invoke, on } from '../ipc.ts';
import { account } from './account.svelte.ts';

class ConnectionState {
  online = $state(typeof navigator === 'undefined' ? true : navigator.onLine);
  /** Epoch ms until which the service asked us to wait; null when not limited. */
  rateLimitedUntil = $state<number | null>(null);
  #now = $state(Date.now());

  readonly rateLimited = $derived(this.rateLimitedUntil !== null && this.rateLimitedUntil > this.#now);
  readonly isDemo = $derived(account.isDemo);
  /** Without the service's reachability (service-reach.svelte.ts), which the status bar adds. */
  readonly status: 'online' | 'offline' | 'rate-limited' = $derived(
    !this.online ? 'offline' : this.rateLimited ? 'rate-limited' : 'online',
  );

  #apply(status: SyncStatusInfo): void {
    const error = status.lastError;
    this.#now = Date.now();
    this.rateLimitedUntil = error?.code === 'rate_limited' ? this.#now + (error.retryAfterMs ?? 60_000) : null;
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
    const stopSync = on('sync:status-changed', (status) => {
      if (!status.running) this.#apply(status);
    });
    // Re-check now and then, so "rate limited" ends when its wait is over.
    const tick = setInterval(() => (this.#now = Date.now()), 5000);
    return () => {
      window.removeEventListener('online', up);
      window.removeEventListener('offline', down);
      stopSync();
      clearInterval(tick);
    };
  }
}

export const connection = new ConnectionState();

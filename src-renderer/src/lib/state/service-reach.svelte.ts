// Whether the service can be reached, as the library and jobs views need to know it: the browser's
// own online flag, plus what real requests learn: the core reports every request's outcome
// ('service:reach'), refreshes and our own calls add theirs (the service stopped answering).
// Downloaded media stays usable either way; remote-only items say why they wait.
import { accountBound } from '../account-scope.ts';
import type { ErrorInfo } from '@contract/errors.ts';
import type { SyncStatusInfo } from '@contract/ipc/sync.ts';
import { invoke, on } from '../ipc.ts';
import { connection } from './connection.svelte.ts';

const UNREACHABLE_CODES: ReadonlySet<ErrorInfo['code']> = new Set(['network', 'offline']);

export const isUnreachableError = (error: ErrorInfo | null | undefined): boolean =>
  !!error && UNREACHABLE_CODES.has(error.code);

class ServiceReach {
  /** The last attempt to talk to the service failed for lack of a connection. */
  unreachable = $state(false);
  refreshing = $state(false);
  lastSyncedAt = $state<string | null>(null);

  constructor() {
    accountBound<ServiceReach>(this, () => ({ unreachable: false, refreshing: false, lastSyncedAt: null }), {
      reload: () => this.load(),
    });
  }

  /** The browser has no network, or the last refresh or call could not reach the service. */
  readonly offline = $derived(!connection.online || this.unreachable);

  /** Why remote-only things wait, in one sentence. */
  readonly waitReason = $derived(
    !connection.online
      ? 'You are offline: this is not downloaded, so it waits until the network is back.'
      : 'The service cannot be reached: this is not downloaded, so it waits until the service answers again.',
  );

  /** Feed any failed call here: only connection failures count. */
  noteError(error: ErrorInfo): void {
    if (isUnreachableError(error)) this.unreachable = true;
  }

  noteReached(): void {
    this.unreachable = false;
  }

  #apply(status: SyncStatusInfo): void {
    this.refreshing = status.running;
    this.lastSyncedAt = status.lastSyncedAt;
    if (status.running) return;
    if (status.lastError) this.noteError(status.lastError);
    else this.noteReached();
  }

  async load(): Promise<void> {
    const result = await invoke('sync:status');
    if (result.ok) this.#apply(result.value);
  }

  /** Asks the core to refresh the cache from the service; a failure only changes what we show. */
  async refresh(): Promise<boolean> {
    this.refreshing = true;
    try {
      const result = await invoke('sync:refresh', { scope: 'all' });
      if (result.ok) this.noteReached();
      else this.noteError(result.error);
      return result.ok;
    } finally {
      this.refreshing = false;
    }
  }

  listen(): () => void {
    const stops = [
      on('sync:status-changed', (status) => this.#apply(status)),
      on('sync:changed', () => this.noteReached()),
      on('service:reach', ({ reachable }) => (this.unreachable = !reachable)),
    ];
    return () => stops.forEach((stop) => stop());
  }
}

export const serviceReach = new ServiceReach();

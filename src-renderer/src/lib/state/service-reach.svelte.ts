// Whether the service can be reached, as the core measures it (core/host/service-reach.ts): a check
// when the account opens, every request's outcome, retries with backoff on its own while it cannot be
// reached. The browser's `online` event asks the core to check at once. Nothing here assumes: until
// the first check ends the answer is "checking", never "online". Downloaded media stays usable either
// way; remote-only items say why they wait, and work that needs the service says why it cannot start.
import { accountBound } from '../account-scope.ts';
import type { ErrorInfo } from '@contract/errors.ts';
import type { ServiceReachInfo, SyncStatusInfo } from '@contract/ipc/sync.ts';
import { invoke, on } from '../ipc.ts';
import { connection } from './connection.svelte.ts';

const UNREACHABLE_CODES: ReadonlySet<ErrorInfo['code']> = new Set(['network', 'offline']);

export const isUnreachableError = (error: ErrorInfo | null | undefined): boolean =>
  !!error && UNREACHABLE_CODES.has(error.code);

class ServiceReach {
  /** As the core last measured it; null until the open account's first check ends. */
  reachable = $state<boolean | null>(null);
  refreshing = $state(false);
  checking = $state(false);
  lastSyncedAt = $state<string | null>(null);

  constructor() {
    accountBound<ServiceReach>(
      this,
      () => ({ reachable: null, refreshing: false, checking: false, lastSyncedAt: null }),
      { reload: () => this.load() },
    );
  }

  /** The last attempt to talk to the service failed for lack of a connection. */
  readonly unreachable = $derived(this.reachable === false);

  /** The browser has no network, or the service could not be reached. */
  readonly offline = $derived(!connection.online || this.unreachable);

  /** Why remote-only things wait, in one sentence. */
  readonly waitReason = $derived(
    !connection.online
      ? 'You are offline: this is not downloaded, so it waits until the network is back.'
      : 'The service cannot be reached: this is not downloaded, so it waits until the service answers again.',
  );

  /**
   * Why work that runs on the service (`what`: "Generating", "Upscaling", "Training") cannot start
   * now; null when it can. Nothing is queued meanwhile: it is refused, not held.
   */
  needsService(what: string): string | null {
    if (!connection.online)
      return `${what} needs the service, and this computer is offline. Try again when the network is back.`;
    if (this.unreachable)
      return `${what} needs the service, which cannot be reached right now. Atelier keeps trying on its own.`;
    return null;
  }

  #set(info: ServiceReachInfo): void {
    this.reachable = info.reachable;
  }

  /** Feed any failed call here: a connection failure shows at once, and the core checks for itself. */
  noteError(error: ErrorInfo): void {
    if (!isUnreachableError(error)) return;
    this.reachable = false;
    void this.check();
  }

  #apply(status: SyncStatusInfo): void {
    this.refreshing = status.running;
    this.lastSyncedAt = status.lastSyncedAt;
  }

  async load(): Promise<void> {
    const [reach, sync] = await Promise.all([invoke('service:status'), invoke('sync:status')]);
    if (reach.ok) this.#set(reach.value);
    if (sync.ok) this.#apply(sync.value);
  }

  /** Asks the core to check the service now (Try now, the browser's `online` event). */
  async check(): Promise<void> {
    this.checking = true;
    try {
      const result = await invoke('service:check');
      if (result.ok) this.#set(result.value);
    } finally {
      this.checking = false;
    }
  }

  /** Asks the core to refresh the cache from the service; a failure only changes what we show. */
  async refresh(): Promise<boolean> {
    this.refreshing = true;
    try {
      const result = await invoke('sync:refresh', { scope: 'all' });
      if (!result.ok) this.noteError(result.error);
      return result.ok;
    } finally {
      this.refreshing = false;
    }
  }

  listen(): () => void {
    const online = () => void this.check();
    window.addEventListener('online', online);
    const stops = [
      on('sync:status-changed', (status) => this.#apply(status)),
      on('service:reach', (info) => this.#set(info)),
    ];
    return () => {
      window.removeEventListener('online', online);
      stops.forEach((stop) => stop());
    };
  }
}

export const serviceReach = new ServiceReach();

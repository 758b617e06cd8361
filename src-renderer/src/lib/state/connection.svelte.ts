// What the status bar says about the connection: online, offline or rate limited, and whether this is the demo.
// Today it knows the browser's own online flag and the account mode; the core's view of the service
// (rate limits, unreachable service) joins once a channel reports it.
import { account } from './account.svelte.ts';

export type ConnectionStatus = 'online' | 'offline' | 'rate-limited';

class ConnectionState {
  online = $state(typeof navigator === 'undefined' ? true : navigator.onLine);
  /** Epoch ms until which the service asked us to wait (429 Retry-After); null when not limited. */
  rateLimitedUntil = $state<number | null>(null);

  readonly status: ConnectionStatus = $derived(
    !this.online ? 'offline' : this.rateLimitedUntil !== null ? 'rate-limited' : 'online',
  );
  readonly isDemo = $derived(account.isDemo);

  listen(): () => void {
    const up = () => (this.online = true);
    const down = () => (this.online = false);
    window.addEventListener('online', up);
    window.addEventListener('offline', down);
    return () => {
      window.removeEventListener('online', up);
      window.removeEventListener('offline', down);
    };
  }
}

export const connection = new ConnectionState();

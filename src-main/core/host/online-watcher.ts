// Turns a cheap "are we online?" probe into change events. Electron's main process has no
// online/offline event (net.isOnline() only answers when asked), so hosts poll it.
import { networkInterfaces } from 'node:os';

export interface OnlineWatcherOptions {
  probe: () => boolean;
  onChange: (online: boolean) => void;
  intervalMs: number;
  setInterval?: (fn: () => void, ms: number) => unknown;
  clearInterval?: (handle: unknown) => void;
}

export interface OnlineWatcher {
  /** Probes now (e.g. right after a resume) instead of waiting for the next tick. */
  check(): boolean;
  stop(): void;
}

export function watchOnline(options: OnlineWatcherOptions): OnlineWatcher {
  const every = options.setInterval ?? ((fn, ms) => setInterval(fn, ms).unref());
  const cancel = options.clearInterval ?? ((handle) => clearInterval(handle as NodeJS.Timeout));
  let last: boolean | null = null;
  const check = (): boolean => {
    let online: boolean;
    try {
      online = options.probe();
    } catch {
      // A broken probe must not make the engine give up on the network.
      online = true;
    }
    if (online !== last) {
      const first = last === null;
      last = online;
      if (!first) options.onChange(online);
    }
    return online;
  };
  check();
  const handle = every(check, options.intervalMs);
  return { check, stop: () => cancel(handle) };
}

/**
 * A Node-only probe for hosts without Chromium: online when any non-loopback interface has an
 * address. Like Chromium's own check it says "maybe reachable", never "the service is up".
 */
export function hasNetworkInterface(interfaces = networkInterfaces()): boolean {
  return Object.values(interfaces).some((addresses) => (addresses ?? []).some((address) => !address.internal));
}

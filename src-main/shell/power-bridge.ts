// Feeds the engine's PowerSignals from Electron: powerMonitor's suspend/resume and a poll of
// net.isOnline() (the main process has no online/offline event of its own).
import type { PowerSignalHub } from '../core/host/power-signals.ts';
import { watchOnline } from '../core/host/online-watcher.ts';

export interface PowerMonitorLike {
  on(event: 'suspend' | 'resume', listener: () => void): unknown;
  off(event: 'suspend' | 'resume', listener: () => void): unknown;
}

export interface PowerBridgeOptions {
  powerMonitor: PowerMonitorLike;
  isOnline: () => boolean;
  hub: PowerSignalHub;
  /** How often to ask the network stack; cheap, it only reads Chromium's cached state. */
  intervalMs?: number;
}

export function bridgePowerSignals(options: PowerBridgeOptions): () => void {
  const { hub, powerMonitor } = options;
  const watcher = watchOnline({
    probe: options.isOnline,
    onChange: (online) => hub.setOnline(online),
    intervalMs: options.intervalMs ?? 5_000,
  });
  hub.setOnline(watcher.check());
  const onSuspend = (): void => hub.suspend();
  const onResume = (): void => {
    // The network often changed while asleep: settle that before the engine catches up.
    hub.setOnline(watcher.check());
    hub.resume();
  };
  powerMonitor.on('suspend', onSuspend);
  powerMonitor.on('resume', onResume);
  return () => {
    watcher.stop();
    powerMonitor.off('suspend', onSuspend);
    powerMonitor.off('resume', onResume);
  };
}

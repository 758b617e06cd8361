// The engine's loops pause while the machine is offline or asleep, or while the user paused
// checking jobs, and resume when that ends. Returns the function that stops following.
import type { PowerSignals } from '../host/power-signals.ts';
import type { WallClockLoop } from './wall-clock-loop.ts';

export interface PollingPreference {
  /** The user paused checking jobs (tray/settings). */
  pollingPaused(): boolean;
  /** Returns the unsubscribe function. */
  onPollingPausedChange?(listener: (paused: boolean) => void): () => void;
}

export function followConditions(
  loops: readonly WallClockLoop[],
  power: PowerSignals,
  preferences: PollingPreference | undefined,
): () => void {
  const each = (act: (loop: WallClockLoop) => void) => loops.forEach(act);
  if (!power.isOnline()) each((loop) => loop.pause('offline'));
  if (preferences?.pollingPaused()) each((loop) => loop.pause('setting'));
  const unsubscribe = [
    power.onSuspend(() => each((loop) => loop.pause('suspended'))),
    power.onResume(() => each((loop) => loop.resume('suspended'))),
    power.onOnlineChange((online) => each((loop) => (online ? loop.resume('offline') : loop.pause('offline')))),
  ];
  const onPaused = preferences?.onPollingPausedChange?.((paused) =>
    each((loop) => (paused ? loop.pause('setting') : loop.resume('setting'))),
  );
  if (onPaused) unsubscribe.push(onPaused);
  return () => unsubscribe.splice(0).forEach((off) => off());
}

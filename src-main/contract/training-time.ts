// How long a training takes and how it is said, once for every side: the spec's usual duration,
// the demo's time scale (its emulator runs that much faster, and its watcher checks that much more
// often), and the words for a duration, a range and a check interval ("12 s of the usual 60–75 s",
// "every 15 seconds"), so the core's messages, the CLI and the screens say the same thing.

const SECOND = 1000;
const MINUTE = 60 * SECOND;

/** The spec: training usually takes 20–25 minutes. */
export const TRAINING_USUAL_MS = { min: 20 * MINUTE, max: 25 * MINUTE } as const;

/**
 * Virtual ms per real ms of the demo's emulator: a 20-minute training takes a minute there, and the
 * demo's training watcher runs the service's schedule that much faster (core/jobs/training-watcher.ts).
 */
export const DEMO_TIME_SCALE = 20;

export interface DurationRange {
  min: number;
  max: number;
}

/** A range up to this long is said in seconds ("60–75 s"), longer ones in minutes ("20–25 min"). */
const SECONDS_UP_TO = 2 * MINUTE;

const inSeconds = (range: DurationRange): boolean => range.max <= SECONDS_UP_TO;

/** "60–75 s", "20–25 min". */
export function spokenRange(range: DurationRange): string {
  return inSeconds(range)
    ? `${Math.round(range.min / SECOND)}–${Math.round(range.max / SECOND)} s`
    : `${Math.round(range.min / MINUTE)}–${Math.round(range.max / MINUTE)} min`;
}

/** An elapsed time in the unit its range is said in: "12 s", "3 min" (whole units, rounded down). */
export function spokenElapsed(elapsedMs: number, range: DurationRange): string {
  const ms = Math.max(0, elapsedMs);
  return inSeconds(range) ? `${Math.floor(ms / SECOND)} s` : `${Math.floor(ms / MINUTE)} min`;
}

/** "every 15 seconds", "every minute", "every 5 minutes". */
export function spokenEvery(intervalMs: number): string {
  if (intervalMs < MINUTE || intervalMs % MINUTE !== 0) {
    const seconds = Math.max(1, Math.round(intervalMs / SECOND));
    return seconds === 1 ? 'every second' : `every ${seconds} seconds`;
  }
  const minutes = intervalMs / MINUTE;
  return minutes === 1 ? 'every minute' : `every ${minutes} minutes`;
}

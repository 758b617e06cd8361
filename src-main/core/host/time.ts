// Background work's sense of time, injected: wall-clock now, one-shot timers and randomness, so
// tests (and the emulator's virtual clock) decide when "later" is without sleeping. Shared by the
// jobs engine, the upload queue and anything else that waits on the wall clock.

export type TimerHandle = unknown;

export interface EngineTime {
  /** Wall-clock epoch milliseconds (the schedule is stored in these, so it survives restarts). */
  now(): number;
  /** Uniform in [0, 1): the jitter source. */
  random(): number;
  setTimer(fn: () => void, ms: number): TimerHandle;
  clearTimer(handle: TimerHandle): void;
}

export const systemTime: EngineTime = {
  now: () => Date.now(),
  random: () => Math.random(),
  // unref: a pending poll must never keep a CLI or a test process alive on its own.
  setTimer: (fn, ms) => setTimeout(fn, Math.max(0, ms)).unref(),
  clearTimer: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

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
  /**
   * Waits `ms` inside a piece of work (a poll round's short retry), rejecting with the signal's
   * reason when it aborts. Optional: without it, a timer of this clock is used.
   */
  sleep?(ms: number, signal?: AbortSignal): Promise<void>;
}

/** Waits on this clock; the wait ends early (rejected) when the signal aborts. */
export function sleepOn(time: EngineTime, ms: number, signal?: AbortSignal): Promise<void> {
  if (time.sleep) return time.sleep(ms, signal);
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      time.clearTimer(handle);
      reject(signal?.reason);
    };
    const handle = time.setTimer(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

const refTimers: EngineTime = {
  now: () => Date.now(),
  random: () => Math.random(),
  setTimer: (fn, ms) => setTimeout(fn, Math.max(0, ms)),
  clearTimer: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export const systemTime: EngineTime = {
  now: () => Date.now(),
  random: () => Math.random(),
  // unref: a pending poll must never keep a CLI or a test process alive on its own.
  setTimer: (fn, ms) => setTimeout(fn, Math.max(0, ms)).unref(),
  clearTimer: (handle) => clearTimeout(handle as NodeJS.Timeout),
  // Not unref'd: a command awaiting a poll round must not exit in the middle of its short wait.
  sleep: (ms, signal) => sleepOn(refTimers, ms, signal),
};

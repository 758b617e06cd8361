// An EngineTime for tests: "now" comes from a given source (the emulator's virtual clock), timers
// fire only when the test says so, and randomness is seeded, so a test controls time without sleeping.
import type { EngineTime, TimerHandle } from '../../host/time.ts';

interface PendingTimer {
  id: number;
  at: number;
  fn: () => void;
}

export interface ManualTime extends EngineTime {
  /** Fires every timer due at the current now, once each; returns how many fired. */
  fireDue(): number;
  pending(): { at: number }[];
  /** The delays (ms) timers were armed with, in order. */
  readonly armed: number[];
  /**
   * Waits inside work (a round's retry). Once the work in flight has had its turn (setImmediate),
   * the earliest sleep ends: with `advance`, the clock is moved to its end first (as the real time
   * it takes would move it); without, it ends at once, taking no virtual time.
   */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** The lengths (ms) of every sleep asked for, in order. */
  readonly slept: number[];
}

/** mulberry32: small, fast, repeatable. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function createManualTime(
  now: () => number,
  options: { seed?: number; random?: () => number; advance?: (ms: number) => void } = {},
): ManualTime {
  const timers = new Map<number, PendingTimer>();
  const sleeps = new Set<{ at: number; resolve: () => void }>();
  const slept: number[] = [];
  const armed: number[] = [];
  let nextId = 1;
  const wakeEarliest = (): void => {
    if (sleeps.size === 0) return;
    const at = Math.min(...[...sleeps].map((entry) => entry.at));
    if (at > now() && options.advance) options.advance(at - now());
    const current = Math.max(now(), options.advance ? -Infinity : at);
    for (const entry of [...sleeps].filter((e) => e.at <= current)) {
      sleeps.delete(entry);
      entry.resolve();
    }
  };
  const random = options.random ?? seededRandom(options.seed ?? 7);
  return {
    now,
    random,
    armed,
    setTimer(fn, ms): TimerHandle {
      const id = nextId++;
      armed.push(ms);
      timers.set(id, { id, at: now() + Math.max(0, ms), fn });
      return id;
    },
    clearTimer(handle) {
      timers.delete(handle as number);
    },
    fireDue() {
      const current = now();
      const due = [...timers.values()].filter((t) => t.at <= current).sort((a, b) => a.at - b.at || a.id - b.id);
      for (const timer of due) {
        timers.delete(timer.id);
        timer.fn();
      }
      return due.length;
    },
    pending: () => [...timers.values()].map((t) => ({ at: t.at })),
    slept,
    sleep(ms, signal) {
      slept.push(ms);
      return new Promise((resolve, reject) => {
        if (signal?.aborted) {
          reject(signal.reason);
          return;
        }
        const entry = {
          at: now() + Math.max(0, ms),
          resolve: () => {
            signal?.removeEventListener('abort', onAbort);
            resolve();
          },
        };
        const onAbort = (): void => {
          sleeps.delete(entry);
          reject(signal?.reason);
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        sleeps.add(entry);
        setImmediate(wakeEarliest);
      });
    },
  };
}

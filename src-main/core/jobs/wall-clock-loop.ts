// The engine's one timer pattern: run some work when its wall-clock due time comes (stored in
// the database, so it survives restarts), back off with full jitter after failures and never
// before a Retry-After, pause while offline/asleep, and catch up once, with jitter, on wake.
import type { ErrorInfo } from '../../contract/errors.ts';
import { diskFullError, isDiskFull } from '../host/disk-full.ts';
import { classifyFailure, retryDelay, type BackoffPolicy } from '../api/backoff.ts';
import type { EngineTime, TimerHandle } from '../host/time.ts';

export interface LoopWork {
  /** Earliest wall-clock time something is due; null = nothing to do until poked. */
  nextDueAt(): number | null;
  /**
   * Does what is due. A failure means "the service is unwell": the whole loop backs off, unless
   * the run also `progressed` (got a good answer or finished something) and the failure was
   * transient: then the backoff resets, and the work retries its failed parts on its own. A rate
   * limit or an auth failure always gates the loop.
   */
  run(): Promise<{ requests: number; failure: ErrorInfo | null; progressed?: boolean }>;
}

export interface LoopOptions {
  backoff: BackoffPolicy;
  /** Timers are re-armed at least this often, so a changed wall clock is noticed. */
  maxTimerMs: number;
  /** A timer this late means the machine slept (without telling us): catch up. */
  jumpThresholdMs: number;
  /** On wake or reconnection, the first run happens within this spread (jitter). */
  catchUpSpreadMs: number;
  /** After an auth failure (key revoked), wait this long before trying again. */
  authPauseMs: number;
}

export const DEFAULT_LOOP_OPTIONS: LoopOptions = {
  backoff: { baseMs: 2_000, capMs: 5 * 60_000 },
  maxTimerMs: 60_000,
  jumpThresholdMs: 2 * 60_000,
  catchUpSpreadMs: 5_000,
  authPauseMs: 5 * 60_000,
};

export interface GateStore {
  load(): number;
  save(until: number): void;
}

export interface WallClockLoopDeps {
  work: LoopWork;
  time: EngineTime;
  options: LoopOptions;
  /** Where "not before" survives a restart (a Retry-After still counts after a crash). */
  gate?: GateStore;
  onFailure?(info: ErrorInfo, delayMs: number, failures: number): void;
  onError?(error: unknown): void;
}

export type PauseReason = 'offline' | 'suspended' | 'setting';

export class WallClockLoop {
  readonly #deps: WallClockLoopDeps;
  #timer: TimerHandle | null = null;
  #expectedAt: number | null = null;
  #running: Promise<void> | null = null;
  #stopped = true;
  readonly #pauses = new Set<PauseReason>();
  #gateUntil = 0;
  /** The part of the gate set by a Retry-After: a wake-up catch-up never shortens it. */
  #retryAfterUntil = 0;
  #failures = 0;

  constructor(deps: WallClockLoopDeps) {
    this.#deps = deps;
  }

  get failures(): number {
    return this.#failures;
  }

  /** No request before this time (epoch ms); 0 = none. */
  get notBefore(): number {
    return this.#gateUntil;
  }

  get paused(): boolean {
    return this.#pauses.size > 0;
  }

  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    const saved = this.#deps.gate?.load() ?? 0;
    const now = this.#deps.time.now();
    if (saved > now) {
      // Never longer than the longest wait this loop sets itself: a gate stored by an older version
      // (which honoured any Retry-After) or under a wrong clock must not stop the work for good.
      const longest = now + Math.max(this.#deps.options.backoff.capMs, this.#deps.options.authPauseMs);
      this.#gateUntil = this.#retryAfterUntil = Math.min(saved, longest);
      if (saved > longest) this.#deps.gate?.save(this.#gateUntil);
    }
    this.#arm();
  }

  /** The user's "Check now": forget the wait (Retry-After included) and the backoff, run what is due. */
  checkNow(): Promise<void> {
    this.#failures = 0;
    this.#retryAfterUntil = 0;
    this.#setGate(0);
    return this.runNow();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    this.#clear();
    await this.#running;
  }

  pause(reason: PauseReason): void {
    this.#pauses.add(reason);
    this.#clear();
  }

  /** Ends a pause; when nothing else holds the loop, catches up once within the jitter spread. */
  resume(reason: PauseReason): void {
    if (!this.#pauses.delete(reason) || this.#pauses.size > 0) return;
    this.catchUp();
  }

  /** After a wake or reconnection: forget the backoff, run once soon (jittered), keep any Retry-After. */
  catchUp(): void {
    const { time, options } = this.#deps;
    this.#failures = 0;
    this.#setGate(Math.max(this.#retryAfterUntil, time.now() + Math.round(time.random() * options.catchUpSpreadMs)));
    this.#arm();
  }

  /** Something new is due (a job was submitted): re-plan the timer. */
  poke(): void {
    this.#arm();
  }

  /** Runs what is due now (if not paused or gated); resolves when done. Coalesces with a running pass. */
  runNow(): Promise<void> {
    if (this.#running) return this.#running;
    const pass = (async () => {
      try {
        await this.#pass();
      } catch (error) {
        // A bug or a local failure (database busy, disk full) must not become a busy loop: back off.
        this.#deps.onError?.(error);
        if (!this.#stopped)
          this.#fail(
            isDiskFull(error)
              ? diskFullError().info
              : { code: 'internal', message: error instanceof Error ? error.message : String(error) },
          );
      } finally {
        this.#running = null;
        this.#arm();
      }
    })();
    this.#running = pass;
    return pass;
  }

  /** Resolves when no pass is running. */
  async settled(): Promise<void> {
    while (this.#running) await this.#running;
  }

  async #pass(): Promise<void> {
    if (this.#stopped || this.paused) return;
    const { time, work } = this.#deps;
    if (time.now() < this.#gateUntil) return;
    const due = work.nextDueAt();
    if (due === null || due > time.now()) return;
    const result = await work.run();
    if (this.#stopped || this.paused) return; // failures while going to sleep or offline say nothing
    if (result.failure && !(result.progressed && classifyFailure(result.failure) === 'transient'))
      this.#fail(result.failure);
    else if (result.requests > 0) this.#succeed();
  }

  #fail(info: ErrorInfo): void {
    const { time, options } = this.#deps;
    this.#failures += 1;
    const kind = classifyFailure(info);
    const delay =
      kind === 'auth' ? options.authPauseMs : retryDelay(info, this.#failures, time.random, options.backoff);
    const until = time.now() + delay;
    if (kind === 'rate_limited') this.#retryAfterUntil = until;
    this.#setGate(until);
    this.#deps.onFailure?.(info, delay, this.#failures);
  }

  #succeed(): void {
    this.#failures = 0;
    if (this.#gateUntil !== 0) this.#setGate(0);
  }

  #setGate(until: number): void {
    this.#gateUntil = until;
    this.#deps.gate?.save(until);
  }

  #clear(): void {
    if (this.#timer !== null) this.#deps.time.clearTimer(this.#timer);
    this.#timer = null;
    this.#expectedAt = null;
  }

  #arm(): void {
    this.#clear();
    if (this.#stopped || this.paused || this.#running) return;
    const { time, work, options } = this.#deps;
    const due = work.nextDueAt();
    if (due === null) return;
    const now = time.now();
    const at = Math.max(due, this.#gateUntil);
    const delay = Math.min(Math.max(0, at - now), options.maxTimerMs);
    this.#expectedAt = now + delay;
    this.#timer = time.setTimer(() => this.#onTimer(), delay);
  }

  #onTimer(): void {
    const expected = this.#expectedAt;
    this.#timer = null;
    this.#expectedAt = null;
    if (expected !== null && this.#deps.time.now() - expected > this.#deps.options.jumpThresholdMs) {
      // The machine slept without a suspend signal (browser mode, CLI): same jittered catch-up.
      this.catchUp();
      return;
    }
    void this.runNow();
  }
}

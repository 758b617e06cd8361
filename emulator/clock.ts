// Virtual clock: virtual now = anchor + real elapsed × timeScale + manual advances, so lifecycles can jump.

export interface VirtualClockOptions {
  /** Virtual milliseconds per real millisecond (1 = real time). */
  timeScale?: number;
  /** Virtual time at start; defaults to the real time. */
  startAt?: number;
  /** Real time source, injectable so unit tests need not sleep. */
  realNow?: () => number;
}

export class VirtualClock {
  readonly timeScale: number;
  private readonly realNow: () => number;
  private readonly realAnchor: number;
  private virtualAnchor: number;

  constructor(options: VirtualClockOptions = {}) {
    const scale = options.timeScale ?? 1;
    if (!Number.isFinite(scale) || scale <= 0) throw new RangeError('timeScale must be a positive number');
    this.timeScale = scale;
    this.realNow = options.realNow ?? Date.now;
    this.realAnchor = this.realNow();
    this.virtualAnchor = options.startAt ?? this.realAnchor;
  }

  now(): number {
    return Math.floor(this.virtualAnchor + (this.realNow() - this.realAnchor) * this.timeScale);
  }

  /** Jumps forward; never backwards, so stored timestamps stay in the past. */
  advance(ms: number): number {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError('advance needs a non-negative number of milliseconds');
    this.virtualAnchor += ms;
    return this.now();
  }

  /** Converts a virtual duration into the real seconds a client has to wait (for Retry-After). */
  realSecondsFor(virtualMs: number): number {
    return Math.max(1, Math.ceil(virtualMs / this.timeScale / 1000));
  }
}

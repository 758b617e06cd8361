// A seed with a lock: unlocked, every generation rolls a new seed (and shows it); locked, the same seed repeats.

export const SEED_MAX = 4294967295;

export const randomSeed = (): number => {
  const buffer = new Uint32Array(1);
  crypto.getRandomValues(buffer);
  return buffer[0] ?? 0;
};

export class SeedLock {
  value = $state<number | undefined>(undefined);
  locked = $state(false);

  /** Typing a seed means "use this one": it locks. */
  set(value: number | undefined): void {
    this.value = value;
    this.locked = value !== undefined;
  }

  toggleLock(): void {
    if (!this.locked && this.value === undefined) this.value = randomSeed();
    this.locked = !this.locked;
  }

  /** A new seed to use from now on: rolling is choosing, so it locks. */
  roll(): void {
    this.value = randomSeed();
    this.locked = true;
  }

  /** The seed the request carries while editing: only a locked one (an unlocked one is rolled at submit). */
  readonly current: number | undefined = $derived(this.locked ? this.value : undefined);

  /** The seed for a submission: the locked one, or a fresh roll that is then shown. */
  forSubmit(): number {
    if (!this.locked || this.value === undefined) this.value = randomSeed();
    return this.value;
  }
}

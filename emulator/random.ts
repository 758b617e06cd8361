// Deterministic randomness: a seeded generator for ids and fault dice, and stable hashes for per-record choices.
import { createHash } from 'node:crypto';

/** mulberry32: tiny, fast, and good enough for test dice; its whole state is one uint32 we can persist. */
export class SeededRandom {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  hex(length: number): string {
    let out = '';
    while (out.length < length)
      out += Math.floor(this.next() * 0x100000000)
        .toString(16)
        .padStart(8, '0');
    return out.slice(0, length);
  }

  get seedState(): number {
    return this.state;
  }
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** A stable number in [0, 1) for a string, so a job's durations follow from its id alone. */
export function hashFraction(text: string): number {
  return parseInt(sha256Hex(text).slice(0, 8), 16) / 0x100000000;
}

/** Stable integer in [min, max] derived from a string. */
export function hashInt(text: string, min: number, max: number): number {
  return min + Math.floor(hashFraction(text) * (max - min + 1));
}

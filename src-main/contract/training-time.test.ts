import { describe, expect, it } from 'vitest';
import { spokenElapsed, spokenEvery, spokenRange, TRAINING_USUAL_MS } from './training-time.ts';

describe('training time in words', () => {
  it('says a range in seconds when short (the demo), in minutes otherwise (the service)', () => {
    expect(spokenRange(TRAINING_USUAL_MS)).toBe('20–25 min');
    expect(spokenRange({ min: 60_000, max: 75_000 })).toBe('60–75 s');
  });
  it('says the elapsed time in its range’s unit, rounded down', () => {
    expect(spokenElapsed(0, TRAINING_USUAL_MS)).toBe('0 min');
    expect(spokenElapsed(5 * 60_000 + 59_000, TRAINING_USUAL_MS)).toBe('5 min');
    expect(spokenElapsed(12_900, { min: 60_000, max: 75_000 })).toBe('12 s');
    expect(spokenElapsed(-5, { min: 60_000, max: 75_000 })).toBe('0 s');
  });
  it('says a check interval', () => {
    expect(spokenEvery(5 * 60_000)).toBe('every 5 minutes');
    expect(spokenEvery(60_000)).toBe('every minute');
    expect(spokenEvery(15_000)).toBe('every 15 seconds');
    expect(spokenEvery(45_000)).toBe('every 45 seconds');
    expect(spokenEvery(90_000)).toBe('every 90 seconds');
  });
});

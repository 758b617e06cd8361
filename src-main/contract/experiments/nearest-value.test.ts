// The nearest allowed value: ratios by ratio, sizes by their number (a tie to the smaller), numbers
// clamped, a wrong type left for the rules to refuse.
import { describe, expect, it } from 'vitest';
import { fitToSpec, nearestOf, valueFromText } from './nearest-value.ts';

describe('nearest allowed value', () => {
  it('compares aspect ratios as ratios, portrait and landscape apart', () => {
    expect(nearestOf('21:9', ['16:9', '9:16'])).toBe('16:9');
    expect(nearestOf('2:3', ['16:9', '9:16', '1:1'])).toBe('9:16');
    expect(nearestOf('5:4', ['16:9', '9:16', '1:1'])).toBe('1:1');
    expect(nearestOf('9:21', ['16:9', '9:16', '1:1'])).toBe('9:16');
  });

  it('compares sizes, resolutions and durations by their number; a tie goes to the smaller', () => {
    expect(nearestOf('4K', ['2K', '3K'])).toBe('3K');
    expect(nearestOf('1K', ['2K', '4K'])).toBe('2K');
    expect(nearestOf('3K', ['2K', '4K'])).toBe('2K');
    expect(nearestOf('1080p', ['480p', '720p'])).toBe('720p');
    expect(nearestOf(5, [4, 6, 8])).toBe(4);
  });

  it('falls back to the default, else the first value, when nothing can be compared', () => {
    expect(nearestOf('sequential', ['auto', 'disabled'])).toBe('auto');
    expect(nearestOf('ultra', ['auto', 'high'], 'high')).toBe('high');
  });

  it('fits a value to its spec, saying whether it changed; a wrong type is left alone', () => {
    expect(fitToSpec('2K', { kind: 'enum', values: ['1K', '2K'] })).toEqual({ value: '2K', changed: false });
    expect(fitToSpec(9, { kind: 'int', min: 1, max: 4 })).toEqual({ value: 4, changed: true });
    expect(fitToSpec(-1, { kind: 'int', min: 4, max: 12, also: [-1] })).toEqual({ value: -1, changed: false });
    expect(fitToSpec(1.5, { kind: 'number', min: 0, max: 1 })).toEqual({ value: 1, changed: true });
    expect(fitToSpec('7', { kind: 'int', min: 1, max: 4 })).toBeNull();
    expect(fitToSpec('yes', { kind: 'boolean' })).toBeNull();
  });

  it('reads an axis text as the type its setting takes', () => {
    expect(valueFromText('42', { kind: 'int', min: 0, max: 100 })).toBe(42);
    expect(valueFromText('on', { kind: 'boolean' })).toBe(true);
    expect(valueFromText('Off', { kind: 'boolean' })).toBe(false);
    expect(valueFromText('high', { kind: 'enum', values: ['high'] })).toBe('high');
    expect(valueFromText('four', { kind: 'int', min: 0, max: 9 })).toBe('four');
  });
});

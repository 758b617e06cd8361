import { describe, expect, it } from 'vitest';
import { categoryHue, categorySwatch } from './preset-swatch.ts';

describe('preset swatches', () => {
  it('give a category the same colours every time, whatever its case or spaces', () => {
    expect(categorySwatch('Cinematic')).toBe(categorySwatch(' cinematic '));
    expect(categoryHue('Photography')).toBe(categoryHue('photography'));
  });

  it('tell the usual categories apart', () => {
    const hues = ['Photography', 'Cinematic', 'Illustration', 'Painting', '3D', 'Other'].map(categoryHue);
    for (const hue of hues) expect(hue).toBeGreaterThanOrEqual(0);
    expect(new Set(hues).size).toBe(hues.length);
  });
});

// A preset's picture where the library has none made with it yet: a swatch of its category, the
// same colours for the same category every time (the service gives presets no picture).

/** A stable hue (0–359) for a category name. */
export function categoryHue(category: string): number {
  let hash = 2166136261;
  for (const char of category.trim().toLowerCase()) {
    hash ^= char.codePointAt(0) ?? 0;
    hash = Math.imul(hash, 16777619);
  }
  return (hash >>> 0) % 360;
}

/** The CSS background of a category's swatch. */
export function categorySwatch(category: string): string {
  const hue = categoryHue(category || 'Other');
  return `linear-gradient(135deg, hsl(${hue} 60% 62%), hsl(${(hue + 35) % 360} 55% 36%))`;
}

// A setting's value made to fit what a model accepts: an enum value to the nearest allowed one
// ("3K" → "2K", "21:9" → "16:9"), a number clamped into its range, an axis's text read as the type
// the setting takes. Pure; the experiment mapping (model-mapping.ts) says what changed in words.
import type { SettingSpec } from '../rules/index.ts';

const RATIO = /^(\d+(?:\.\d+)?):(\d+(?:\.\d+)?)$/;
const LEADING_NUMBER = /^(\d+(?:\.\d+)?)/;

/** "16:9" → ln(16/9): ratios compared on a log scale, so 1:2 and 2:1 are as far from 1:1. */
export function ratioOf(value: unknown): number | null {
  const match = typeof value === 'string' ? RATIO.exec(value) : null;
  if (!match) return null;
  const [a, b] = [Number(match[1]), Number(match[2])];
  return a > 0 && b > 0 ? Math.log(a / b) : null;
}

/** "2K" → 2, "720p" → 720, 8 → 8; null when the value does not start with a number. */
function sizeOf(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  const match = typeof value === 'string' ? LEADING_NUMBER.exec(value) : null;
  return match ? Number(match[1]) : null;
}

/**
 * The allowed value nearest `value`: by ratio for aspect ratios, by the leading number for sizes,
 * resolutions and durations (a tie goes to the smaller, the cheaper); otherwise the setting's default,
 * else its first value.
 */
export function nearestOf<T extends string | number>(value: unknown, allowed: readonly T[], fallback?: T): T {
  const measure = ratioOf(value) !== null ? ratioOf : sizeOf;
  const target = measure(value);
  let best: T | undefined;
  let bestDistance = Infinity;
  if (target !== null) {
    for (const candidate of allowed) {
      const at = measure(candidate);
      if (at === null) continue;
      const distance = Math.abs(at - target);
      const smaller = best !== undefined && distance === bestDistance && (measure(best) ?? Infinity) > at;
      if (distance < bestDistance || smaller) [best, bestDistance] = [candidate, distance];
    }
  }
  return best ?? fallback ?? allowed[0]!;
}

export type Fitted = { value: unknown; changed: boolean } | null;

/**
 * `value` as `spec` accepts it: unchanged when it conforms, else the nearest allowed value (enums),
 * or clamped into range (numbers). Null when no sensible value exists (a wrong type): the rules then
 * say what is wrong with it.
 */
export function fitToSpec(value: unknown, spec: SettingSpec): Fitted {
  switch (spec.kind) {
    case 'enum':
      if (typeof value !== 'string') return null;
      if (spec.values.includes(value)) return { value, changed: false };
      return { value: nearestOf(value, spec.values, spec.default), changed: true };
    case 'intEnum':
      if (typeof value !== 'number' || !Number.isFinite(value)) return null;
      if (spec.values.includes(value)) return { value, changed: false };
      return { value: nearestOf(value, spec.values, spec.default), changed: true };
    case 'int': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return null;
      if ((spec.also ?? []).includes(value)) return { value, changed: false };
      const fitted = Math.min(spec.max, Math.max(spec.min, Math.round(value)));
      return { value: fitted, changed: fitted !== value };
    }
    case 'number': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return null;
      const fitted = Math.min(spec.max, Math.max(spec.min, value));
      return { value: fitted, changed: fitted !== value };
    }
    case 'boolean':
      return typeof value === 'boolean' ? { value, changed: false } : null;
    case 'string':
      return typeof value === 'string' ? { value, changed: false } : null;
  }
}

const NUMBER_TEXT = /^-?\d+(?:\.\d+)?$/;

/** An axis's text as the type `spec` takes ("42" → 42, "on" → true); text that is not one stays text. */
export function valueFromText(text: string, spec: SettingSpec | undefined): unknown {
  const trimmed = text.trim();
  switch (spec?.kind) {
    case 'int':
    case 'intEnum':
    case 'number':
      return NUMBER_TEXT.test(trimmed) ? Number(trimmed) : text;
    case 'boolean':
      if (/^(true|on|yes)$/i.test(trimmed)) return true;
      if (/^(false|off|no)$/i.test(trimmed)) return false;
      return text;
    default:
      return text;
  }
}

/** A whole number's text as a number ("42" → 42); other text stays text (the rules refuse it). */
export const wholeNumberText = (text: string): unknown => (/^-?\d+$/.test(text.trim()) ? Number(text.trim()) : text);

// Carrying option values across a model switch: keep what the new model accepts, fill in its defaults.
import { checkSetting } from '@contract/rules/common.ts';
import type { SettingsTable } from '@contract/rules/index.ts';

export function carryOver(
  previous: Record<string, unknown>,
  table: SettingsTable,
  defaults: Record<string, unknown>,
): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(previous)) {
    const spec = table[name];
    if (spec && value !== undefined && checkSetting(name, value, spec) === null) kept[name] = value;
  }
  return { ...defaults, ...kept };
}

/** The option-group defaults inside a defaultsFor() answer, e.g. defaultsFor('imagea').options.imagea. */
export function groupDefaults(defaults: Record<string, unknown>, group: string): Record<string, unknown> {
  const options = defaults['options'];
  if (typeof options !== 'object' || options === null) return {};
  const values = (options as Record<string, unknown>)[group];
  return typeof values === 'object' && values !== null ? { ...(values as Record<string, unknown>) } : {};
}

/** Drops unset entries so the request never carries `undefined` keys. */
export function defined(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
}

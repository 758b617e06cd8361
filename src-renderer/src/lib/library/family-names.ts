// What the "whole family" filter (AssetFilter.familyOf) is called on its chip: the names of the assets
// it was asked for, remembered when the user asked (the filter itself holds only `kind:id` keys).
const known = new Map<string, string>();

/** Remembers what an asset named in a familyOf filter is called (its title, state/names.svelte.ts). */
export function rememberFamilyName(key: string, name: string): void {
  known.set(key, name);
}

/** "Family of “a fox at dawn”", "Family of 3 items"; a key never seen here is "the chosen item". */
export function familyFilterWords(keys: readonly string[]): string {
  if (keys.length !== 1) return `Family of ${keys.length} items`;
  const name = known.get(keys[0] ?? '');
  return name ? `Family of “${name}”` : 'Family of the chosen item';
}

// Copy-on-write helpers for the raw Maps and Sets state modules replace wholesale (never mutated in
// place, so a plain assignment is the one change signal).

/** A new map: `base` with `changes` set and `removed` keys dropped. */
export function withEntries<K, V>(
  base: ReadonlyMap<K, V>,
  changes: Iterable<readonly [K, V]>,
  removed: Iterable<K> = [],
): Map<K, V> {
  const next = new Map(base);
  for (const [key, value] of changes) next.set(key, value);
  for (const key of removed) next.delete(key);
  return next;
}

/** A new set with `key` added, or removed when `present` is false. */
export function withMember<T>(base: ReadonlySet<T>, key: T, present: boolean): Set<T> {
  const next = new Set(base);
  if (present) next.add(key);
  else next.delete(key);
  return next;
}

/** How often each value occurs, in first-seen order. */
export function tally<T>(values: Iterable<T>): [T, number][] {
  const counts = new Map<T, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts];
}

// The marking keys, the same wherever an asset has focus (the grid, the viewer, compare, culling):
// 1–5 set that many stars, 0 clears the rating, P picks, X rejects, U clears the flag. And the
// words that confirm a change ("Rated 4 stars", "Rejected"), shown and read out politely.
import type { AssetRefInfo } from '@contract/ipc/library.ts';
import type { AssetMarkInfo, MarkChangeInfo } from '@contract/ipc/marks.ts';

/** The change a key asks for, or null when it is not a marking key (or a modifier is held). */
export function markChangeOfKey(
  event: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey'>,
): MarkChangeInfo | null {
  if (event.ctrlKey || event.metaKey || event.altKey) return null;
  const key = event.key;
  if (key.length === 1 && key >= '0' && key <= '5') return { rating: Number(key) };
  switch (key.toLowerCase()) {
    case 'p':
      return { flag: 'pick' };
    case 'x':
      return { flag: 'reject' };
    case 'u':
      return { flag: null };
    default:
      return null;
  }
}

const stars = (n: number): string => (n === 1 ? '1 star' : `${n} stars`);

/** A change in words: "Rated 4 stars", "Rating cleared", "Picked", "Rejected", "Flag cleared"; with a count for many. */
export function describeMarkChange(change: MarkChangeInfo, count = 1): string {
  const parts: string[] = [];
  if (change.rating !== undefined) parts.push(change.rating === 0 ? 'Rating cleared' : `Rated ${stars(change.rating)}`);
  if (change.flag !== undefined) {
    const flag = change.flag === 'pick' ? 'Picked' : change.flag === 'reject' ? 'Rejected' : 'Flag cleared';
    parts.push(parts.length > 0 ? flag.toLowerCase() : flag);
  }
  const words = parts.join(', ');
  return count > 1 ? `${words}: ${count.toLocaleString('en-US')} items` : words;
}

/** An asset's marks in words, for a tile's or a control's accessible name: "4 stars, picked". */
export function describeMarks(marks: { rating: number; flag: 'pick' | 'reject' | null }): string {
  return [
    marks.rating > 0 ? stars(marks.rating) : null,
    marks.flag === 'pick' ? 'picked' : marks.flag === 'reject' ? 'rejected' : null,
  ]
    .filter(Boolean)
    .join(', ');
}

/** Marks grouped by value, so an undo takes as few calls as there are distinct previous marks. */
export function groupByMarks(marks: readonly AssetMarkInfo[]): { change: MarkChangeInfo; assets: AssetRefInfo[] }[] {
  const groups = new Map<string, { change: MarkChangeInfo; assets: AssetRefInfo[] }>();
  for (const mark of marks) {
    const key = `${mark.rating}:${mark.flag ?? ''}`;
    const group = groups.get(key) ?? { change: { rating: mark.rating, flag: mark.flag }, assets: [] };
    group.assets.push({ kind: mark.kind, id: mark.id });
    groups.set(key, group);
  }
  return [...groups.values()];
}

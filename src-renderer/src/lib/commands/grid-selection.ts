// Selecting in the Library's grid: a click, a shift-click range and select all, each gathering at most
// what one action takes (ASSETS_PER_CALL), so a select all over a million assets never holds a million
// items. A range may reach over pages the list let go of: they are fetched again first.
import { ASSETS_PER_CALL } from '@contract/ipc/library.ts';
import { formatCount } from '../library/format.ts';
import { selection, type ClickModifiers } from '../state/library-selection.svelte.ts';
import { library } from '../state/library/list.svelte.ts';
import { toasts } from '../state/toasts.svelte.ts';

/** From `from` toward `toward`, at most ASSETS_PER_CALL items. */
export const cappedRange = (from: number, toward: number): [number, number] =>
  from <= toward
    ? [from, Math.min(toward, from + ASSETS_PER_CALL - 1)]
    : [Math.max(toward, from - ASSETS_PER_CALL + 1), from];

const tellCapped = () => toasts.info(`Selected ${formatCount(ASSETS_PER_CALL)}: the most one action takes at once.`);

/** A click on the tile at `index`, with its modifiers (toggle, range). */
export async function clickTile(index: number, modifiers: ClickModifiers): Promise<void> {
  const anchor = selection.anchor;
  if (modifiers.range && anchor !== null) {
    const [first, last] = cappedRange(anchor, index);
    await library.withRange(first, last, (items) => selection.selectRange(items, modifiers.toggle));
    if (last - first < Math.abs(index - anchor)) tellCapped();
  } else {
    const asset = library.at(index);
    if (asset) selection.click(asset, index, modifiers);
  }
}

/** Select all: the view's first ASSETS_PER_CALL items (and says so when the view holds more). */
export async function selectAllInView(): Promise<void> {
  await library.withRange(0, ASSETS_PER_CALL - 1, (items) => selection.selectAll(items));
  if (library.count > ASSETS_PER_CALL || library.hasMore) tellCapped();
}

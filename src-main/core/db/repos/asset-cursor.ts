// The library's keyset cursor: the (created_at, seq) of the last row shown — and its rating, when
// sorted by rating — and the sort it belongs to, as a short opaque string. Paging by position
// instead would skip or repeat rows whenever a sync inserts new assets between two pages.
import { AppError } from '../../../contract/errors.ts';
import type { AssetSortInfo } from '../../../contract/ipc/assets.ts';

export type AssetSort = AssetSortInfo;

export interface AssetCursor {
  sort: AssetSort;
  createdAt: number;
  seq: number;
  /** The last row's stars: part of the key when sorted by rating (0 otherwise). */
  rating: number;
}

const PATTERN = /^([no]|r[0-5])(-?[0-9a-z]{1,12})\.([0-9a-z]{1,12})$/;

const prefixOf = (cursor: AssetCursor): string =>
  cursor.sort === 'newest' ? 'n' : cursor.sort === 'oldest' ? 'o' : `r${cursor.rating}`;

export const encodeAssetCursor = (cursor: AssetCursor): string =>
  `${prefixOf(cursor)}${cursor.createdAt.toString(36)}.${cursor.seq.toString(36)}`;

function invalidCursor(): AppError {
  return new AppError({
    code: 'invalid_argument',
    field: 'cursor',
    message: 'The page cursor is not valid for this list; start again from the first page.',
  });
}

/** Refuses a damaged cursor or one made for another sort order. */
export function decodeAssetCursor(text: string, sort: AssetSort): AssetCursor {
  const match = PATTERN.exec(text);
  if (!match) throw invalidCursor();
  const prefix = match[1] ?? '';
  const cursor: AssetCursor = {
    sort: prefix === 'n' ? 'newest' : prefix === 'o' ? 'oldest' : 'rating',
    createdAt: parseInt(match[2] ?? '', 36),
    seq: parseInt(match[3] ?? '', 36),
    rating: prefix.startsWith('r') ? Number(prefix.slice(1)) : 0,
  };
  if (cursor.sort !== sort || !Number.isSafeInteger(cursor.createdAt) || !Number.isSafeInteger(cursor.seq)) {
    throw invalidCursor();
  }
  return cursor;
}

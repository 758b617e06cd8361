// The library's keyset cursor: the (created_at, seq) of the last row shown and the sort it
// belongs to, as a short opaque string. Paging by position instead would skip or repeat rows
// whenever a sync inserts new assets between two pages.
import { AppError } from '../../../contract/errors.ts';

export type AssetSort = 'newest' | 'oldest';

export interface AssetCursor {
  sort: AssetSort;
  createdAt: number;
  seq: number;
}

const PATTERN = /^([no])(-?[0-9a-z]{1,12})\.([0-9a-z]{1,12})$/;

export const encodeAssetCursor = (cursor: AssetCursor): string =>
  `${cursor.sort === 'newest' ? 'n' : 'o'}${cursor.createdAt.toString(36)}.${cursor.seq.toString(36)}`;

function invalidCursor(): AppError {
  return new AppError({
    code: 'invalid_argument',
    field: 'cursor',
    message: 'The page cursor is not valid for this list; start again from the first page.',
  });
}

/** Refuses a damaged cursor or one made for the other sort order. */
export function decodeAssetCursor(text: string, sort: AssetSort): AssetCursor {
  const match = PATTERN.exec(text);
  if (!match) throw invalidCursor();
  const cursor: AssetCursor = {
    sort: match[1] === 'n' ? 'newest' : 'oldest',
    createdAt: parseInt(match[2] ?? '', 36),
    seq: parseInt(match[3] ?? '', 36),
  };
  if (cursor.sort !== sort || !Number.isSafeInteger(cursor.createdAt) || !Number.isSafeInteger(cursor.seq)) {
    throw invalidCursor();
  }
  return cursor;
}

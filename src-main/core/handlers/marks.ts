// The handler of assets:mark: the user's ratings and flags, set on many assets in one transaction.
// Answers with each asset's marks now and before (the caller's undo), and tells the renderer
// (assets:changed 'organize', as a favourite does).
import { AppError } from '../../contract/errors.ts';
import type { AssetRefInfo } from '../../contract/ipc/library.ts';
import type { AssetMarkInfo, MarkChangeInfo, MarkResultInfo } from '../../contract/ipc/marks.ts';
import type { AccountDb } from '../db/account-db.ts';
import type { MarkRow } from '../db/repos/marks-repo.ts';
import type { EventBus } from '../events.ts';
import { collectionInfos } from './collections.ts';

export interface MarksHandlerDeps {
  cache(): AccountDb;
  events: EventBus;
}

/** Above this many assets, the event says "reload what you show" rather than naming them. */
const NAMED_IN_EVENT = 100;

const keyOf = (ref: AssetRefInfo): string => `${ref.kind}:${ref.id}`;
const markOf = (row: MarkRow): AssetMarkInfo => ({ kind: row.kind, id: row.id, rating: row.rating, flag: row.flag });

export function marksHandlers(deps: MarksHandlerDeps) {
  return {
    'assets:mark': ({ assets, ...change }: { assets: AssetRefInfo[] } & MarkChangeInfo): MarkResultInfo => {
      const cache = deps.cache();
      const { previous, marks, changedRefs } = cache.transaction(() => {
        const rows = new Map(cache.marks.marksOfRefs(assets).map((row) => [keyOf(row), row]));
        const missing = assets.filter((ref) => !rows.has(keyOf(ref)));
        if (missing.length > 0) {
          throw new AppError({
            code: 'not_found',
            field: 'assets',
            message:
              missing.length === 1
                ? 'That item is no longer in the library; nothing was marked.'
                : `${missing.length} of these items are no longer in the library; nothing was marked.`,
          });
        }
        const before = assets.map((ref) => markOf(rows.get(keyOf(ref)) as MarkRow));
        const bySeq = new Map([...rows.values()].map((row) => [row.seq, row]));
        const changed = cache.marks.setMarks([...bySeq.keys()], change);
        const after = before.map((mark) => ({
          ...mark,
          rating: change.rating ?? mark.rating,
          flag: change.flag === undefined ? mark.flag : change.flag,
        }));
        // The changed assets' refs from the rows already read, not a further statement.
        const changedRefs = changed.map((seq) => {
          const { kind, id } = bySeq.get(seq) as MarkRow;
          return { kind, id };
        });
        return { previous: before, marks: after, changedRefs };
      });
      if (changedRefs.length > 0) {
        deps.events.emit('assets:changed', {
          reason: 'organize',
          kinds: [...new Set(changedRefs.map((ref) => ref.kind))],
          ...(changedRefs.length <= NAMED_IN_EVENT ? { assets: changedRefs } : {}),
        });
        // Smart collections may search by rating or flag: their counts move too.
        deps.events.emit('collections:changed', { collections: collectionInfos(cache) });
      }
      return { marks, previous, changed: changedRefs.length };
    },
  };
}

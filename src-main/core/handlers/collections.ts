// Handlers of favorites:* and collections:*: the local star and collections (hand-made or saved
// searches). Each change tells the renderer (assets:changed 'organize', collections:changed).
import { join } from 'node:path';
import * as v from 'valibot';
import { AppError } from '../../contract/errors.ts';
import {
  collectionSearchSchema,
  type CollectionInfo,
  type CollectionMembershipInfo,
  type CollectionSearchInfo,
  type FavoriteResultInfo,
} from '../../contract/ipc/collections.ts';
import type { AssetRefInfo, LibraryExportInfo } from '../../contract/ipc/library.ts';
import type { AccountDb } from '../db/account-db.ts';
import { CollectionNameError, type CollectionRow } from '../db/repos/collections-repo.ts';
import { isoTime } from '../db/iso-time.ts';
import { parseJson } from '../db/values.ts';
import type { EventBus } from '../events.ts';

export interface CollectionsHandlerDeps {
  cache(): AccountDb;
  events: EventBus;
  /** Copies these assets' files with sidecars into `to` (the library's export). */
  exportTo(refs: AssetRefInfo[], to: string): Promise<LibraryExportInfo>;
  now?: () => number;
}

/** A smart collection's saved search, read back through the schema it was saved by (null: none, or unreadable). */
const searchOf = (row: CollectionRow): CollectionSearchInfo | null => {
  if (row.search === null) return null;
  const parsed = v.safeParse(collectionSearchSchema, parseJson(row.search));
  return parsed.success ? parsed.output : null;
};

function toInfo(cache: AccountDb, row: CollectionRow): CollectionInfo {
  const search = searchOf(row);
  return {
    id: row.id,
    name: row.name,
    smart: row.search !== null,
    search,
    count: search ? cache.assets.countMatching(search) : row.items,
    createdAt: isoTime(row.created_at),
    updatedAt: isoTime(row.updated_at),
  };
}

/** Every collection with its count now (what collections:changed carries). */
export const collectionInfos = (cache: AccountDb): CollectionInfo[] =>
  cache.collections.list().map((row) => toInfo(cache, row));

const notFound = () => new AppError({ code: 'not_found', field: 'id', message: 'That collection no longer exists.' });

function nameError(error: unknown): never {
  if (error instanceof CollectionNameError) {
    throw new AppError({
      code: 'invalid_argument',
      field: 'name',
      message:
        error.problem === 'taken' ? 'A collection with that name already exists.' : 'Give the collection a name.',
    });
  }
  throw error;
}

/** A folder name from a collection's name: no separators or characters the file systems refuse. */
export function collectionFolderName(name: string): string {
  const cleaned = name
    .replace(/[\\/:*?"<>|\u0000-\u001f]/g, ' ')
    .replace(/\s+/g, ' ')
    .replace(/^[.\s]+|[.\s]+$/g, '')
    .slice(0, 80);
  return cleaned === '' ? 'Collection' : cleaned;
}

export function collectionsHandlers(deps: CollectionsHandlerDeps) {
  const now = deps.now ?? Date.now;
  const list = (): CollectionInfo[] => collectionInfos(deps.cache());
  const one = (id: number): CollectionInfo => {
    const cache = deps.cache();
    const row = cache.collections.get(id);
    if (!row) throw notFound();
    return toInfo(cache, row);
  };
  const changed = () => deps.events.emit('collections:changed', { collections: list() });
  const handMade = (id: number): void => {
    const row = deps.cache().collections.get(id);
    if (!row) throw notFound();
    if (row.search !== null) {
      throw new AppError({
        code: 'invalid_argument',
        field: 'id',
        message: 'A smart collection shows what its search finds: items cannot be added to it by hand.',
      });
    }
  };

  return {
    'favorites:set': ({ assets, favorite }: { assets: AssetRefInfo[]; favorite: boolean }): FavoriteResultInfo => {
      const cache = deps.cache();
      const seqs = cache.assets.seqsOf(assets);
      const changedSeqs = cache.transaction(() => cache.assets.setFavorite(seqs, favorite));
      if (changedSeqs.length > 0) {
        const refs = cache.assets.refsOf(changedSeqs).map(({ kind, id }) => ({ kind, id }));
        deps.events.emit('assets:changed', {
          reason: 'organize',
          kinds: [...new Set(refs.map((ref) => ref.kind))],
          ...(refs.length <= 100 ? { assets: refs } : {}),
        });
        // Smart collections may search for favourites: their counts move too.
        changed();
      }
      return { changed: changedSeqs.length };
    },
    'collections:list': (): CollectionInfo[] => list(),
    'collections:create': ({ name, search }: { name: string; search?: CollectionSearchInfo | undefined }) => {
      let id: number;
      try {
        id = deps.cache().collections.create(name, search ?? null, now());
      } catch (error) {
        nameError(error);
      }
      changed();
      return one(id);
    },
    'collections:rename': ({ id, name }: { id: number; name: string }): CollectionInfo => {
      try {
        if (!deps.cache().collections.rename(id, name, now())) throw notFound();
      } catch (error) {
        nameError(error);
      }
      changed();
      return one(id);
    },
    'collections:delete': ({ id }: { id: number }): null => {
      if (!deps.cache().collections.delete(id)) throw notFound();
      changed();
      return null;
    },
    'collections:add': ({ id, assets }: { id: number; assets: AssetRefInfo[] }) => {
      handMade(id);
      const cache = deps.cache();
      const added = cache.transaction(() => cache.collections.add(id, cache.assets.seqsOf(assets), now()));
      if (added > 0) changed();
      return { added, collection: one(id) };
    },
    'collections:remove': ({ id, assets }: { id: number; assets: AssetRefInfo[] }) => {
      handMade(id);
      const cache = deps.cache();
      const removed = cache.transaction(() => cache.collections.remove(id, cache.assets.seqsOf(assets), now()));
      if (removed > 0) {
        changed();
        deps.events.emit('assets:changed', { reason: 'organize', kinds: [...new Set(assets.map((a) => a.kind))] });
      }
      return { removed, collection: one(id) };
    },
    'collections:membership': ({ assets }: { assets: AssetRefInfo[] }): CollectionMembershipInfo[] => {
      const cache = deps.cache();
      const counts = new Map<number, number>();
      for (const row of cache.collections.membership(cache.assets.seqsOf(assets))) {
        counts.set(row.collection_id, (counts.get(row.collection_id) ?? 0) + 1);
      }
      return [...counts].map(([collectionId, count]) => ({ collectionId, count }));
    },
    'collections:export': async ({ id, to }: { id: number; to: string }): Promise<LibraryExportInfo> => {
      const cache = deps.cache();
      const row = cache.collections.get(id);
      if (!row) throw notFound();
      const search = searchOf(row);
      const seqs = search ? cache.assets.seqsOfFilter(search, 5000) : cache.collections.itemSeqs(id);
      const refs = cache.assets.refsOf(seqs).map(({ kind, id: assetId }) => ({ kind, id: assetId }));
      if (refs.length === 0) {
        throw new AppError({
          code: 'invalid_argument',
          message: `“${row.name}” is empty: there is nothing to export.`,
        });
      }
      return deps.exportTo(refs, join(to, collectionFolderName(row.name)));
    },
  };
}

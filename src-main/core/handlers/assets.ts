// Handlers of the assets:* channels: library pages and their map, one asset, search and counts, from the cache.
import { AppError } from '../../contract/errors.ts';
import type {
  AssetCountsInfo,
  AssetFilter,
  AssetInfo,
  AssetLayoutInfo,
  AssetPageInfo,
  AssetSortInfo,
} from '../../contract/ipc/assets.ts';
import type { AssetKindInfo, AssetRefInfo } from '../../contract/ipc/library.ts';
import type { AccountDb } from '../db/account-db.ts';
import { assetToInfo, type MediaUrlFor } from './to-info.ts';

export interface AssetsHandlerDeps {
  cache(): AccountDb;
  mediaUrlFor: MediaUrlFor;
}

/** A view of the library from a point on: what assets:list and assets:layout share. */
interface ViewArgs {
  filter?: AssetFilter | undefined;
  sort: AssetSortInfo;
  cursor?: string | null | undefined;
}

const toRepoView = (args: ViewArgs) => ({
  filter: args.filter ?? {},
  sort: args.sort,
  cursor: args.cursor ?? null,
});

export function assetsHandlers(deps: AssetsHandlerDeps) {
  return {
    'assets:list': (args: ViewArgs & { limit: number }): AssetPageInfo => {
      const page = deps.cache().assets.list({ ...toRepoView(args), limit: args.limit });
      return { items: page.rows.map((row) => assetToInfo(row, deps.mediaUrlFor)), nextCursor: page.nextCursor };
    },
    'assets:layout': (args: ViewArgs & { pages: number; pageSize: number }): AssetLayoutInfo => {
      const layout = deps.cache().assets.layout({ ...toRepoView(args), pages: args.pages, pageSize: args.pageSize });
      return {
        pages: layout.pages.map(({ cursor, shapes }) => ({ cursor, shapes: Buffer.from(shapes).toString('base64') })),
        nextCursor: layout.nextCursor,
      };
    },
    'assets:sections': (args: { filter?: AssetFilter | undefined; sections: number[] }): number[] =>
      deps.cache().assets.sectionCounts(args.filter ?? {}, args.sections),
    'assets:get': ({ kind, id }: { kind: AssetKindInfo; id: string }): AssetInfo => {
      const row = deps.cache().assets.get(kind, id);
      if (!row) throw new AppError({ code: 'not_found', field: 'id', message: `No ${kind} ${id} in the library.` });
      return assetToInfo(row, deps.mediaUrlFor);
    },
    'assets:search': (args: { query: string; kind?: AssetKindInfo | undefined; limit: number }): AssetInfo[] =>
      deps
        .cache()
        .assets.search(args.query, args.limit, args.kind ? { kind: args.kind } : {})
        .map((row) => assetToInfo(row, deps.mediaUrlFor)),
    'assets:matching': (args: { filter: AssetFilter; assets: AssetRefInfo[] }): AssetRefInfo[] => {
      const assets = deps.cache().assets;
      const shown = new Set(assets.seqsMatching(args.filter, assets.seqsOf(args.assets)));
      return assets.refsOf([...shown]).map(({ kind, id }) => ({ kind, id }));
    },
    'assets:counts': (args: { origin?: 'generated' | 'uploaded' | undefined }): AssetCountsInfo =>
      deps.cache().assets.counts(args.origin),
  };
}

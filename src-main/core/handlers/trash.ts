// Handlers of the trash:* channels: the open library's trash (core/library/library-trash.ts).
// Arguments arrive validated by dispatch.
import type { AssetRefInfo } from '../../contract/ipc/library.ts';
import {
  trashDaysLeft,
  trashExpiresAt,
  type TrashEmptyInfo,
  type TrashListInfo,
  type TrashRestoreInfo,
  type TrashSummaryInfo,
} from '../../contract/ipc/trash.ts';
import type { LibraryHost } from '../library/library-host.ts';
import { assetToInfo, type MediaUrlFor } from './to-info.ts';

export interface TrashHandlerDeps {
  library: LibraryHost;
  mediaUrlFor: MediaUrlFor;
  now?(): number;
}

export function trashHandlers(deps: TrashHandlerDeps) {
  const now = deps.now ?? Date.now;
  return {
    'trash:list': async (): Promise<TrashListInfo> => {
      const trash = (await deps.library.library()).trash;
      const at = now();
      return {
        ...trash.summary(),
        entries: trash.list().map(({ entry, asset }) => ({
          asset: assetToInfo(asset, deps.mediaUrlFor),
          bytes: entry.bytes,
          trashedAt: new Date(entry.trashed_at).toISOString(),
          expiresAt: new Date(trashExpiresAt(entry.trashed_at)).toISOString(),
          daysLeft: trashDaysLeft(entry.trashed_at, at),
          fileUrl: deps.mediaUrlFor(entry.trash_path),
        })),
      };
    },
    'trash:summary': async (): Promise<TrashSummaryInfo> => (await deps.library.library()).trash.summary(),
    'trash:restore': async ({ assets }: { assets: AssetRefInfo[] }): Promise<TrashRestoreInfo> =>
      (await deps.library.library()).trash.restore(assets),
    'trash:empty': async (args: { assets?: AssetRefInfo[] | undefined } | undefined): Promise<TrashEmptyInfo> =>
      (await deps.library.library()).trash.empty(args?.assets),
  };
}

// Deleting on the service (library:delete-remote): images one DELETE /images/{id} each, through the
// account's client (its retries and rate-limit waits); a 404 means already gone, which is the goal.
// The spec has no DELETE for videos: they are refused with the reason. A local copy is kept (the
// asset stays as an offline copy marked gone from the service); without one the asset leaves the
// library, and a copy of it lying in the trash goes with it (nothing could restore it any more).
import { AppError } from '../../contract/errors.ts';
import type { AssetRefInfo, DeleteRemoteInfo } from '../../contract/ipc/library.ts';
import type { AssetRow } from '../db/repos/asset-row.ts';
import type { AssetsRepo } from '../db/repos/assets-repo.ts';
import type { LibraryServiceClient } from './service-port.ts';

export const VIDEO_DELETE_REFUSED =
  "The service has no way to delete a video (its API lists DELETE only for images). Remove the local copy instead, or delete the video in the service's own app.";

export interface RemoteDeleteDeps {
  client: LibraryServiceClient;
  assets: AssetsRepo;
  cancelUnfinished(refs: readonly AssetRefInfo[]): Promise<unknown>;
  /** The asset is about to leave the library: its trashed copy, if any, goes. */
  dropTrashed(seq: number): Promise<unknown>;
}

export async function deleteRemote(
  deps: RemoteDeleteDeps,
  rows: readonly { ref: AssetRefInfo; asset: AssetRow | undefined }[],
): Promise<DeleteRemoteInfo> {
  const result: DeleteRemoteInfo = { deleted: [], refused: [] };
  for (const { ref, asset } of rows) {
    if (ref.kind === 'video') {
      result.refused.push({ asset: ref, reason: VIDEO_DELETE_REFUSED });
      continue;
    }
    try {
      await deps.client.deleteImage(ref.id);
    } catch (error) {
      // Already gone on the service: the goal is reached.
      if (!(error instanceof AppError && error.info.code === 'not_found')) {
        result.refused.push({
          asset: ref,
          reason: error instanceof AppError ? error.info.message : 'The service could not delete it.',
        });
        continue;
      }
    }
    if (asset) {
      await deps.cancelUnfinished([ref]);
      const fresh = deps.assets.getBySeq(asset.seq);
      if (fresh) {
        if (fresh.file_state === 'remote' || fresh.file_state === 'failed') await deps.dropTrashed(fresh.seq);
        deps.assets.removeFromServer({ seq: fresh.seq, file_state: fresh.file_state });
      }
    }
    result.deleted.push(ref);
  }
  return result;
}

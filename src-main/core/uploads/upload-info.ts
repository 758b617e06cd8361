// An upload row as the renderer sees it (UploadInfo): the queue emits it, the handlers answer with it.
import type { UploadInfo, UploadStateInfo } from '../../contract/ipc/uploads.ts';
import type { UploadRow } from '../db/repos/uploads-repo.ts';

export function uploadToInfo(row: UploadRow, state: UploadStateInfo = row.state): UploadInfo {
  return {
    id: row.id,
    modelId: row.model_id,
    type: row.type,
    fileName: row.file_name,
    bytes: row.bytes,
    state,
    progress: row.progress,
    imageId: row.image_id,
    error: row.error,
    warning: row.warning,
    width: row.width,
    height: row.height,
    attempts: row.attempts,
    createdAt: row.created_at,
  };
}

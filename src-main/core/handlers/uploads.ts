// Handlers of the uploads:* channels: the account's upload queue checks and sends (core/uploads).
import type { UploadInfo, UploadsAddResultInfo } from '../../contract/ipc/uploads.ts';
import type { UploadType } from '../../contract/service.ts';
import type { JobsEngineHost } from '../jobs/engine-host.ts';
import type { FileSource } from '../uploads/upload-checks.ts';

export function uploadsHandlers(host: JobsEngineHost) {
  return {
    'uploads:add': (args: { modelID: string; type: UploadType; files: FileSource[] }): Promise<UploadsAddResultInfo> =>
      host.uploads().add(args),
    'uploads:list': (args: { modelID?: string | undefined } | undefined): UploadInfo[] =>
      host.uploads().list(args?.modelID),
    'uploads:retry': ({ id }: { id: number }): UploadInfo => host.uploads().retry(id),
    'uploads:remove': async ({ id }: { id: number }): Promise<null> => {
      await host.uploads().remove(id);
      return null;
    },
  };
}

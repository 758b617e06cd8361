// Handlers of the uploads:* channels: files arrive as bytes (in chunks, or small ones inline),
// then the account's upload queue checks and sends them (core/uploads).
import type { UploadChunkInfo, UploadFileInfo, UploadInfo, UploadsAddResultInfo } from '../../contract/ipc/uploads.ts';
import type { UploadType } from '../../contract/service.ts';
import { readyUploads, type AccountServices } from '../account-services.ts';
import { IncomingFiles } from '../uploads/incoming-files.ts';
import type { FileSource } from '../uploads/upload-checks.ts';

type AddedFile = { fileId: string } | { name: string; bytesBase64: string };

export function uploadsHandlers(host: AccountServices, incoming = new IncomingFiles()) {
  return {
    'uploads:begin-file': ({ name, size }: { name: string; size: number }): UploadFileInfo => ({
      fileId: incoming.begin(name, size),
    }),
    'uploads:send-chunk': (args: { fileId: string; offset: number; bytesBase64: string }): UploadChunkInfo =>
      incoming.append(args.fileId, args.offset, args.bytesBase64),
    'uploads:add': async (args: {
      modelID: string;
      type: UploadType;
      files: AddedFile[];
    }): Promise<UploadsAddResultInfo> => {
      // Refused before anything is handed over when there is no account to upload to.
      const queue = await readyUploads(host);
      const chunked = incoming.takeAll(args.files.flatMap((f) => ('fileId' in f ? [f.fileId] : [])));
      const files: FileSource[] = args.files.map((f) => ('fileId' in f ? chunked.shift()! : f));
      return queue.add({ modelID: args.modelID, type: args.type, files });
    },
    'uploads:list': async (args: { modelID?: string | undefined } | undefined): Promise<UploadInfo[]> =>
      (await readyUploads(host)).list(args?.modelID),
    'uploads:retry': async ({ id }: { id: number }): Promise<UploadInfo> => (await readyUploads(host)).retry(id),
    'uploads:remove': async ({ id }: { id: number }): Promise<null> => {
      await (await readyUploads(host)).remove(id);
      return null;
    },
  };
}

// Handlers of the library:* channels: the download queue, local copies, deletions on the
// service, export and moving the library folder. Arguments arrive validated by dispatch.
import type {
  AssetRefInfo,
  DeleteRemoteInfo,
  DownloadInfo,
  DownloadsInfo,
  LibraryExportInfo,
  LibraryMoveInfo,
  RemoveLocalInfo,
} from '../../contract/ipc/library.ts';
import type { LibraryHost } from '../library/library-host.ts';

type Refs = { assets: AssetRefInfo[] };
type OptionalRefs = { assets?: AssetRefInfo[] | undefined } | undefined;

export function libraryHandlers(host: LibraryHost) {
  return {
    'library:download': async ({
      assets,
      videoMode,
    }: Refs & { videoMode?: 'mp4' | 'hls' | undefined }): Promise<DownloadInfo[]> =>
      (await host.library()).download(assets, videoMode),
    'library:downloads': async (): Promise<DownloadsInfo> => (await host.library()).queue.list(),
    'library:pause': async (args: OptionalRefs): Promise<DownloadsInfo> =>
      (await host.library()).queue.pause(args?.assets),
    'library:resume': async (args: OptionalRefs): Promise<DownloadsInfo> =>
      (await host.library()).queue.resume(args?.assets),
    'library:retry': async ({ assets }: Refs): Promise<DownloadsInfo> => (await host.library()).queue.retry(assets),
    'library:cancel': async ({ assets }: Refs): Promise<DownloadsInfo> => (await host.library()).queue.cancel(assets),
    'library:remove-local': async ({ assets }: Refs): Promise<RemoveLocalInfo> =>
      (await host.library()).removeLocal(assets),
    'library:delete-remote': async ({ assets }: Refs): Promise<DeleteRemoteInfo> =>
      (await host.library()).deleteRemote(assets),
    'library:move': ({ to }: { to: string }): Promise<LibraryMoveInfo> => host.move(to),
    'library:move-abort': (): null => {
      host.abortMove();
      return null;
    },
    'library:export': async ({ assets, to }: Refs & { to: string }): Promise<LibraryExportInfo> =>
      (await host.library()).exportTo(assets, to),
  };
}

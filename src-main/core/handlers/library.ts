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
    'library:download': ({ assets, videoMode }: Refs & { videoMode?: 'mp4' | 'hls' | undefined }): DownloadInfo[] =>
      host.require().download(assets, videoMode),
    'library:downloads': (): DownloadsInfo => host.require().queue.list(),
    'library:pause': (args: OptionalRefs): DownloadsInfo => host.require().queue.pause(args?.assets),
    'library:resume': (args: OptionalRefs): DownloadsInfo => host.require().queue.resume(args?.assets),
    'library:retry': ({ assets }: Refs): DownloadsInfo => host.require().queue.retry(assets),
    'library:cancel': ({ assets }: Refs): Promise<DownloadsInfo> => host.require().queue.cancel(assets),
    'library:remove-local': ({ assets }: Refs): Promise<RemoveLocalInfo> => host.require().removeLocal(assets),
    'library:delete-remote': ({ assets }: Refs): Promise<DeleteRemoteInfo> => host.require().deleteRemote(assets),
    'library:move': ({ to }: { to: string }): Promise<LibraryMoveInfo> => host.move(to),
    'library:move-abort': (): null => {
      host.abortMove();
      return null;
    },
    'library:export': ({ assets, to }: Refs & { to: string }): Promise<LibraryExportInfo> =>
      host.require().exportTo(assets, to),
  };
}

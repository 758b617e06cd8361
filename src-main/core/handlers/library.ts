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
import { resolve } from 'node:path';
import { AppError } from '../../contract/errors.ts';
import type { HostInfo } from '../context.ts';
import type { PickedFolders } from '../host/picked-folders.ts';
import { isEmptyOrLibrary, type LibraryHost } from '../library/library-host.ts';
import type { Settings } from '../settings/settings.ts';

type Refs = { assets: AssetRefInfo[] };
type OptionalRefs = { assets?: AssetRefInfo[] | undefined } | undefined;

/** Where a new library folder may come from: the app's own dialog, or an explicit path elsewhere. */
export interface LibraryFolderTrust {
  host: HostInfo;
  picked: PickedFolders;
  settings: Settings;
}

const refuse = (message: string): AppError => new AppError({ code: 'invalid_argument', message, field: 'to' });

/** In the app a folder counts only when the user just picked it in the main process's dialog. */
function requirePicked(trust: LibraryFolderTrust, to: string): void {
  if (trust.host.kind === 'electron' && !trust.picked.take('library-move', to)) {
    throw refuse('Choose the folder with "Choose…" (the system’s folder dialog); a typed path is not accepted here.');
  }
}

export function libraryHandlers(host: LibraryHost, trust: LibraryFolderTrust) {
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
    'library:move': ({ to }: { to: string }): Promise<LibraryMoveInfo> => {
      requirePicked(trust, to);
      return host.move(to);
    },
    'library:use-folder': async ({ to }: { to: string }): Promise<{ libraryDir: string }> => {
      requirePicked(trust, to);
      if (!(await isEmptyOrLibrary(to))) {
        throw refuse(
          'That folder is not an Atelier library (no .atelier-library file) and not empty; choose a library folder or an empty one.',
        );
      }
      if (host.moving())
        throw new AppError({ code: 'conflict', message: 'The library folder is moving; wait until it is done.' });
      return { libraryDir: trust.settings.update({ libraryDir: resolve(to) }).libraryDir };
    },
    'library:move-abort': (): null => {
      host.abortMove();
      return null;
    },
    'library:export': async ({ assets, to }: Refs & { to: string }): Promise<LibraryExportInfo> =>
      (await host.library()).exportTo(assets, to),
  };
}

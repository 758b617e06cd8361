// Handlers of the shell:* channels: the core checks every request (https only, paths inside the
// library) before the host's DesktopIntegration touches the OS.
import { dirname, isAbsolute, join } from 'node:path';
import { mkdir, stat } from 'node:fs/promises';
import { AppError } from '../../contract/errors.ts';
import type { NativeMenuChoiceInfo, NativeMenuItemInfo, PickedFolderInfo } from '../../contract/ipc/shell.ts';
import type { CoreContext } from '../context.ts';
import { externalUrlProblem } from '../host/external-url.ts';
import { logsDir } from '../host/folders.ts';
import type { PickedFolders } from '../host/picked-folders.ts';
import { assertNoSymlinkEscape, isWithin, safeLibraryPath } from '../library/library-host.ts';

const outsideLibrary = (): AppError =>
  new AppError({
    code: 'invalid_argument',
    message: 'Only files inside the library folder can be shown.',
    field: 'path',
  });

const unsupportedHere = (): AppError =>
  new AppError({ code: 'unsupported', message: 'This only works in the desktop app.' });

/** The absolute path of a library file named by the renderer, refused outside the library. */
export async function libraryFileToShow(libraryDir: string, path: string): Promise<string> {
  if (path.includes('\0')) throw outsideLibrary();
  let full: string;
  if (isAbsolute(path)) {
    if (!isWithin(libraryDir, path) || join(path) === join(libraryDir)) throw outsideLibrary();
    await assertNoSymlinkEscape(libraryDir, path).catch(() => Promise.reject(outsideLibrary()));
    full = path;
  } else {
    full = await safeLibraryPath(libraryDir, path).catch(() => Promise.reject(outsideLibrary()));
  }
  const info = await stat(full).catch(() => null);
  if (!info)
    throw new AppError({ code: 'not_found', message: 'That file is no longer in the library folder.', field: 'path' });
  return full;
}

export function shellHandlers(ctx: CoreContext, picked: PickedFolders) {
  const desktop = ctx.hostServices.desktop;
  return {
    'shell:open-data-folder': async (): Promise<null> => {
      await desktop.openFolder(ctx.dataDir);
      return null;
    },
    'shell:open-logs-folder': async (): Promise<null> => {
      const dir = logsDir(ctx.dataDir);
      await mkdir(dir, { recursive: true });
      await desktop.openFolder(dir);
      return null;
    },
    'shell:open-external': async ({ url }: { url: string }): Promise<null> => {
      const problem = externalUrlProblem(url);
      if (problem) throw new AppError({ code: 'invalid_argument', message: problem, field: 'url' });
      await desktop.openExternal(url);
      return null;
    },
    'shell:show-item-in-folder': async ({ path }: { path: string }): Promise<null> => {
      desktop.showItemInFolder(await libraryFileToShow(ctx.settings.get().libraryDir, path));
      return null;
    },
    'shell:open-item': async ({ path }: { path: string }): Promise<null> => {
      await desktop.openItem(await libraryFileToShow(ctx.settings.get().libraryDir, path));
      return null;
    },
    'shell:copy-image': async ({ path }: { path: string }): Promise<null> => {
      const full = await libraryFileToShow(ctx.settings.get().libraryDir, path);
      if (!desktop.copyImage) throw unsupportedHere();
      await desktop.copyImage(full);
      return null;
    },
    'shell:start-drag': async ({ path }: { path: string }): Promise<null> => {
      const full = await libraryFileToShow(ctx.settings.get().libraryDir, path);
      if (!desktop.startDrag) throw unsupportedHere();
      desktop.startDrag(full);
      return null;
    },
    'shell:context-menu': async ({ items }: { items: NativeMenuItemInfo[] }): Promise<NativeMenuChoiceInfo> => {
      if (!desktop.popupMenu) throw unsupportedHere();
      return { id: await desktop.popupMenu(items) };
    },
    'shell:pick-folder': async ({
      purpose,
    }: {
      purpose: 'library-move' | 'export' | 'import-marks';
    }): Promise<PickedFolderInfo> => {
      const libraryDir = ctx.settings.get().libraryDir;
      const dialogs = {
        'library-move': { title: 'Move the library to…', buttonLabel: 'Choose This Folder' },
        export: { title: 'Export to…', buttonLabel: 'Export Here' },
        'import-marks': { title: 'Import ratings from…', buttonLabel: 'Import From Here' },
      };
      const path = await desktop.pickFolder({ ...dialogs[purpose], defaultPath: dirname(libraryDir) });
      // The only way a folder reaches library:move / library:use-folder in the app (see picked-folders.ts).
      if (path !== null && purpose === 'library-move') picked.remember(purpose, path);
      return { path };
    },
  };
}

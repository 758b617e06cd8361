// Desktop actions the renderer may ask for through the core (open the data folder, show a file,
// open a link). The core checks the request; the host performs it with its OS integration.
import { AppError } from '../../contract/errors.ts';
import type { NativeMenuItemInfo } from '../../contract/ipc/shell.ts';

export interface DesktopIntegration {
  /** Opens a folder in the file manager. */
  openFolder(path: string): Promise<void>;
  /** Reveals a file in the file manager. */
  showItemInFolder(path: string): void;
  /** Opens a file with the system's default app for its type. */
  openItem(path: string): Promise<void>;
  /** Opens an https link in the default browser (already checked by the core). */
  openExternal(url: string): Promise<void>;
  /** The system's folder dialog (may create a folder); null when cancelled. */
  pickFolder(options: { title: string; buttonLabel: string; defaultPath: string }): Promise<string | null>;
  /** Puts an image file on the clipboard as an image (absent: unsupported). */
  copyImage?(path: string): Promise<void>;
  /** Starts an OS drag of a file out of the app window (absent: unsupported). */
  startDrag?(path: string): void;
  /** Shows a native context menu; the chosen entry's id, or null when closed (absent: unsupported). */
  popupMenu?(items: NativeMenuItemInfo[]): Promise<string | null>;
}

const unsupported = (): never => {
  throw new AppError({
    code: 'unsupported',
    message: 'This only works in the desktop app; in the browser, open the folder or link yourself.',
  });
};

/** Browser mode and the CLI: there is no desktop to drive from a background process. */
export const noDesktop: DesktopIntegration = {
  openFolder: async () => unsupported(),
  showItemInFolder: unsupported,
  openItem: async () => unsupported(),
  openExternal: async () => unsupported(),
  pickFolder: async () => unsupported(),
};

// Library media out of the app (the desktop side of shell:copy-image and shell:start-drag): an image
// onto the system clipboard, a file dragged from the window to the desktop or another app. The core
// has already checked that the path is a file inside the library.
import { clipboard, ClipboardItem, nativeImage, type BrowserWindow } from 'electron';

/** The drag icon: the picture itself, small; a video or an unreadable file gets an empty icon (Electron needs one). */
function dragIcon(path: string): Electron.NativeImage {
  const image = nativeImage.createFromPath(path);
  if (image.isEmpty()) return nativeImage.createFromDataURL(EMPTY_PNG);
  const { width, height } = image.getSize();
  const scale = 96 / Math.max(width, height, 1);
  return scale < 1 ? image.resize({ width: Math.round(width * scale), height: Math.round(height * scale) }) : image;
}

/** A 1×1 transparent PNG. */
const EMPTY_PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

export function mediaOut(window: () => BrowserWindow | null): {
  copyImage(path: string): Promise<void>;
  startDrag(path: string): void;
} {
  return {
    async copyImage(path) {
      const image = nativeImage.createFromPath(path);
      if (image.isEmpty()) throw new Error('This file cannot be copied as an image (only PNG and JPEG can).');
      // As PNG, whatever the file's format: every app that pastes images takes PNG.
      await clipboard.write([
        new ClipboardItem({ 'image/png': new Blob([new Uint8Array(image.toPNG())], { type: 'image/png' }) }),
      ]);
    },
    startDrag(path) {
      const win = window();
      if (!win || win.isDestroyed()) return;
      win.webContents.startDrag({ file: path, icon: dragIcon(path) });
    },
  };
}

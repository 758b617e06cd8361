// Where the renderer loads library files (local copies and thumbnails) from: the URLs the core puts
// in AssetInfo.file, or built from the paths (browser mode /media/<path>, the shell atelier-media://library/<path>).
import type { AssetInfo } from '@contract/ipc/assets.ts';
import { appInfo } from '../state/app-info.svelte.ts';

const encodePath = (relativePath: string): string => relativePath.split('/').map(encodeURIComponent).join('/');

/** The URL of a library-relative path for <img>, <video> and hls.js. */
export function libraryFileUrl(relativePath: string): string {
  const path = encodePath(relativePath);
  return appInfo.info?.host === 'electron' ? `atelier-media://library/${path}` : `/media/${path}`;
}

/** The cached thumbnail, or null (the grid then draws a neutral placeholder, never the full image). */
export function thumbUrl(asset: AssetInfo): string | null {
  return asset.file.thumbUrl ?? (asset.file.thumbPath ? libraryFileUrl(asset.file.thumbPath) : null);
}

/** The downloaded file, or null when there is no complete local copy. */
export function localFileUrl(asset: AssetInfo): string | null {
  if (asset.file.state !== 'downloaded') return null;
  return asset.file.localUrl ?? (asset.file.path ? libraryFileUrl(asset.file.path) : null);
}

export const isLocal = (asset: AssetInfo): boolean => localFileUrl(asset) !== null;

/** A local copy that is an HLS playlist (a folder of segments, `.m3u8`): it plays only through the player. */
export const isPlaylistCopy = (asset: Pick<AssetInfo, 'file'>): boolean => /\.m3u8$/i.test(asset.file.path ?? '');

/** The local copy the browser can seek by itself (a tile's scrub, a first frame): never an HLS copy. */
export function seekableLocalUrl(asset: AssetInfo): string | null {
  const url = localFileUrl(asset);
  return url && !isPlaylistCopy(asset) ? url : null;
}

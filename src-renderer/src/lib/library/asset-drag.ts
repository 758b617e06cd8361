// Dragging library items into Create: the asset's kind, id and remote URL travel in the drag data under
// our own MIME type, with text/uri-list (and text/plain) for any other drop target. A plain link dragged
// in from elsewhere is read too, with its kind unknown.
import type { AssetInfo } from '@contract/ipc/assets.ts';

export const ASSET_DRAG_TYPE = 'application/x-atelier-asset';

/** What a drop hands over: a library item, or (kind null) a bare link from elsewhere. */
export interface DraggedAsset {
  kind: 'image' | 'video' | null;
  id: string | null;
  /** The service's URL of the media; null when the item has none to send. */
  url: string | null;
}

/** The parts of DataTransfer these helpers use (so tests can hand in a stand-in). */
export type DragData = Pick<DataTransfer, 'getData' | 'setData' | 'types' | 'effectAllowed'>;

/** A removed item's link no longer works on the service, so it has nothing to send. */
export const draggedAssetOf = (asset: AssetInfo): DraggedAsset => ({
  kind: asset.kind,
  id: asset.id,
  url: asset.removedFromService ? null : asset.url,
});

export function writeAssetDrag(data: DragData, asset: DraggedAsset): void {
  data.effectAllowed = 'copy';
  data.setData(ASSET_DRAG_TYPE, JSON.stringify(asset));
  if (asset.url) {
    data.setData('text/uri-list', asset.url);
    data.setData('text/plain', asset.url);
  }
}

/** While dragging over (when the data itself cannot be read yet): could this be dropped here? */
export const carriesAsset = (data: Pick<DataTransfer, 'types'> | null | undefined): boolean =>
  !!data && (data.types.includes(ASSET_DRAG_TYPE) || data.types.includes('text/uri-list'));

const isHttp = (text: string): boolean => /^https?:\/\/\S+$/i.test(text);

function parseOwn(text: string): DraggedAsset | null {
  try {
    const value = JSON.parse(text) as Partial<Record<keyof DraggedAsset, unknown>> | null;
    if (!value || (value.kind !== 'image' && value.kind !== 'video')) return null;
    return {
      kind: value.kind,
      id: typeof value.id === 'string' ? value.id : null,
      url: typeof value.url === 'string' && isHttp(value.url) ? value.url : null,
    };
  } catch {
    return null;
  }
}

/** What was dropped: our own item first, else the first http(s) link of a uri-list; null for anything else. */
export function readAssetDrag(data: Pick<DataTransfer, 'getData' | 'types'>): DraggedAsset | null {
  if (data.types.includes(ASSET_DRAG_TYPE)) {
    const own = parseOwn(data.getData(ASSET_DRAG_TYPE));
    if (own) return own;
  }
  const link = data
    .getData('text/uri-list')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .find((line) => line !== '' && !line.startsWith('#'));
  return link && isHttp(link) ? { kind: null, id: null, url: link } : null;
}

const FILE_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
  mp4: 'video/mp4',
  mov: 'video/quicktime',
  webm: 'video/webm',
};

/**
 * Chromium's drag-out-as-a-file data ("DownloadURL": `type:name:absolute URL`) for a downloaded file,
 * so a tile dropped on the desktop or into another app arrives as that file; null for anything that is
 * not one file (an HLS copy is a folder of segments) or not downloaded.
 */
export function downloadUrlOf(
  asset: Pick<AssetInfo, 'id' | 'file'>,
  fileUrl: string | null,
  origin: string,
): string | null {
  const path = asset.file.path;
  if (!path || !fileUrl || asset.file.state !== 'downloaded') return null;
  const name = path.split('/').pop() ?? asset.id;
  const type = FILE_TYPES[name.split('.').pop()?.toLowerCase() ?? ''];
  if (!type) return null;
  const absolute = new URL(fileUrl, origin).href;
  // The name may not hold a colon: it separates the three parts.
  return `${type}:${name.replaceAll(':', '_')}:${absolute}`;
}

// An asset's marks and parents as exported files carry them (contract/file-marks.ts): its id, its
// stars and flag, and what it was made from, read from the library's row. Parents: the image an
// upscale was made from (its id), the image ids its request named (an upscale's imageID, a trained
// model's inputImageId), and the references and frames it was made with (by file name, and their
// role; the service's links name no asset).
import type { FileMarks, FileParent } from '../../../contract/file-marks.ts';
import { referenceName } from '../../../contract/names.ts';
import type { AssetRow } from '../../db/repos/asset-row.ts';
import { parseJson } from '../../db/values.ts';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const ROLES: Record<string, string> = { first_frame: 'first frame', last_frame: 'last frame' };
const roleOf = (role: unknown, fallback: string): string =>
  typeof role === 'string' ? (ROLES[role] ?? role.replace(/_/g, ' ')) : fallback;

function referenceParent(item: unknown, fallbackRole: string): FileParent | null {
  const url = typeof item === 'string' ? item : isRecord(item) && typeof item['url'] === 'string' ? item['url'] : null;
  if (!url) return null;
  return {
    role: roleOf(isRecord(item) ? item['role'] : null, fallbackRole),
    kind: null,
    id: null,
    name: referenceName(url),
  };
}

export function parentsOf(asset: Pick<AssetRow, 'source_asset_id' | 'params' | 'frames'>): FileParent[] {
  const parents: FileParent[] = [];
  const ids = new Set<string>();
  const byId = (id: unknown, role: string) => {
    if (typeof id !== 'string' || id === '' || ids.has(id)) return;
    ids.add(id);
    parents.push({ role, kind: 'image', id, name: null });
  };
  byId(asset.source_asset_id, 'upscale of');
  const request = parseJson(asset.params);
  if (isRecord(request)) {
    byId(request['imageID'], 'upscale of');
    byId(request['inputImageId'], 'input image');
    for (const field of ['referenceImageURLs', 'referenceImages', 'referenceVideos']) {
      const list = request[field];
      if (Array.isArray(list))
        for (const item of list) {
          const parent = referenceParent(item, 'reference');
          if (parent) parents.push(parent);
        }
    }
  }
  const frames = parseJson(asset.frames);
  if (Array.isArray(frames) && !(isRecord(request) && Array.isArray(request['referenceImages'])))
    for (const frame of frames) {
      const parent = referenceParent(frame, 'frame');
      if (parent) parents.push(parent);
    }
  return parents;
}

export const marksOfAsset = (asset: AssetRow): FileMarks => ({
  kind: asset.kind,
  id: asset.id,
  rating: asset.rating,
  flag: asset.flag,
  parents: parentsOf(asset),
});

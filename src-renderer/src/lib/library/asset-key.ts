// One string per asset (an image and a video may share a service id), for maps, sets and keyed lists.
import type { AssetRefInfo } from '@contract/ipc/library.ts';

export type AssetKey = `${AssetRefInfo['kind']}:${string}`;

export const assetKey = (ref: AssetRefInfo): AssetKey => `${ref.kind}:${ref.id}`;

export function refOfKey(key: AssetKey): AssetRefInfo {
  const colon = key.indexOf(':');
  return { kind: key.slice(0, colon) as AssetRefInfo['kind'], id: key.slice(colon + 1) };
}

export const refOf = (asset: AssetRefInfo): AssetRefInfo => ({ kind: asset.kind, id: asset.id });

// Where assets live on disk: the library cache's record of each local copy (assets:get), made
// absolute with the library folder from the settings the app shares.
import { join } from 'node:path';
import type { AssetInfo } from '../contract/ipc/assets.ts';
import type { AssetRefInfo } from '../contract/ipc/library.ts';
import type { Session } from './session.ts';

export const assetKey = (ref: AssetRefInfo): string => `${ref.kind}:${ref.id}`;

export function absolutePathOf(session: Session, asset: Pick<AssetInfo, 'file'>): string | null {
  if (asset.file.state !== 'downloaded' || !asset.file.path) return null;
  return join(session.core.settings.get().libraryDir, ...asset.file.path.split('/'));
}

/** Absolute paths of the downloaded ones among `refs`, keyed by `kind:id`. */
export async function localPaths(session: Session, refs: readonly AssetRefInfo[]): Promise<Map<string, string>> {
  const paths = new Map<string, string>();
  for (const ref of refs) {
    const result = await session.core.dispatch('assets:get', { kind: ref.kind, id: ref.id });
    if (!result.ok) continue;
    const path = absolutePathOf(session, result.value as AssetInfo);
    if (path) paths.set(assetKey(ref), path);
  }
  return paths;
}

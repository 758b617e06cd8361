// How library assets look on the command line: JSON with the absolute local path, or a table.
import type { AssetInfo } from '../contract/ipc/assets.ts';
import { absolutePathOf } from './library-paths.ts';
import { table } from './output.ts';
import type { Session } from './session.ts';

export type AssetView = AssetInfo & { path: string | null };

export const assetView = (session: Session, asset: AssetInfo): AssetView => ({
  ...asset,
  path: absolutePathOf(session, asset),
});

export function assetTable(assets: readonly AssetView[]): string[] {
  return table(
    ['KIND', 'ID', 'MODEL', 'TYPE', 'CREATED', 'FILE', 'PROMPT'],
    assets.map((a) => [a.kind, a.id, a.modelId, a.type, a.createdAt, a.path ?? a.file.state, a.prompt?.slice(0, 60)]),
  );
}

// How library assets look on the command line: JSON with the absolute local path, or a table.
import { modelName } from '../contract/names.ts';
import type { AssetInfo } from '../contract/ipc/assets.ts';
import { parseJson } from '../core/db/values.ts';
import { absolutePathOf } from './library-paths.ts';
import { table } from './output.ts';
import type { Session } from './session.ts';

/** As the CLI prints it: the request parsed (pages carry it as text), the absolute local path. */
export type AssetView = Omit<AssetInfo, 'paramsJson'> & { params: unknown; path: string | null };

export function assetView(session: Session, asset: AssetInfo): AssetView {
  const { paramsJson, ...rest } = asset;
  return { ...rest, params: parseJson(paramsJson), path: absolutePathOf(session, asset) };
}

export function assetTable(assets: readonly AssetView[]): string[] {
  return table(
    ['KIND', 'ID', 'MODEL', 'TYPE', 'CREATED', 'FILE', 'PROMPT'],
    assets.map((a) => [
      a.kind,
      a.id,
      a.modelId ? modelName(a.modelId) : null,
      a.type,
      a.createdAt,
      a.path ?? a.file.state,
      a.prompt?.slice(0, 60),
    ]),
  );
}

// The request that made an asset, parsed on first use. Library pages carry it as JSON text
// (AssetInfo.paramsJson) because parsing every row's request was most of a page's cost in the
// core; the few places that read it (remix, the details, the shape of a tile whose size is not
// known) parse it here, once per asset object.
import type { AssetInfo } from '@contract/ipc/assets.ts';

export type AssetParams = Record<string, unknown>;

// Keyed by the asset object and checked against its text, so an object updated in place re-parses.
const parsed = new WeakMap<object, { text: string; params: AssetParams | null }>();

/** The request as an object; null when unknown, damaged or not an object. */
export function parseParams(text: string | null | undefined): AssetParams | null {
  if (!text) return null;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as AssetParams) : null;
  } catch {
    return null;
  }
}

export function assetParams(asset: Pick<AssetInfo, 'paramsJson'>): AssetParams | null {
  const text = asset.paramsJson;
  if (!text) return null;
  const known = parsed.get(asset);
  if (known?.text === text) return known.params;
  const params = parseParams(text);
  parsed.set(asset, { text, params });
  return params;
}

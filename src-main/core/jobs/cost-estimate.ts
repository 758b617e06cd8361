// Cost before Generate: what the next job will probably cost, from what this account's own recent
// jobs with the same model and the same settings cost (the credits the service's job list reported).
// Only the things that change the price are compared; the prompt, the seed and references are not.
import type { CostEstimateInfo } from '../../contract/ipc/jobs.ts';
import { defaultsFor, normalize } from '../../contract/rules/index.ts';
import { isRecord } from '../../contract/rules/common.ts';

/** Fields that never change what a job costs. */
const PRICE_NEUTRAL = new Set([
  'prompt',
  'preset',
  'seed',
  'negativePrompt',
  'referenceImageURLs',
  'referenceImages',
  'referenceVideos',
  'elementIDs',
  'inputImageId',
]);
/** Enough recent jobs to be a fair average, few enough to follow a change of prices. */
const SAMPLE = 10;
const SCAN = 100;

/** A default left out and the same default sent cost the same: both are compared with the defaults filled in. */
function withDefaults(body: unknown): unknown {
  if (!isRecord(body) || typeof body['modelID'] !== 'string') return body;
  const defaults = defaultsFor(body['modelID']);
  const merged: Record<string, unknown> = { ...defaults, ...body };
  const own = isRecord(body['options']) ? body['options'] : {};
  const base = isRecord(defaults['options']) ? defaults['options'] : {};
  const groups = new Set([...Object.keys(base), ...Object.keys(own)]);
  if (groups.size > 0) {
    merged['options'] = Object.fromEntries(
      [...groups].map((g) => [g, { ...(isRecord(base[g]) ? base[g] : {}), ...(isRecord(own[g]) ? own[g] : {}) }]),
    );
  }
  return merged;
}

/** The settings of a request that may change its price, as one comparable string. */
export function priceKey(kind: 'image' | 'video', body: unknown): string {
  const normal = normalize({ kind, body: withDefaults(body) }).body;
  const strip = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(strip);
    if (!isRecord(value)) return value;
    return Object.fromEntries(
      Object.keys(value)
        .filter((k) => !PRICE_NEUTRAL.has(k) && value[k] !== undefined)
        .sort()
        .map((k) => [k, strip(value[k])]),
    );
  };
  return JSON.stringify(strip(normal));
}

export function estimateCost(
  kind: 'image' | 'video',
  body: unknown,
  history: readonly { request: string; credits: number }[],
): CostEstimateInfo {
  const key = priceKey(kind, body);
  const same: number[] = [];
  for (const row of history) {
    let request: unknown;
    try {
      request = JSON.parse(row.request);
    } catch {
      continue;
    }
    if (priceKey(kind, request) === key) same.push(row.credits);
    if (same.length >= SAMPLE) break;
  }
  if (same.length === 0) return { credits: null, basedOn: 0, low: null, high: null };
  const mean = same.reduce((a, b) => a + b, 0) / same.length;
  return {
    credits: Math.round(mean * 100) / 100,
    basedOn: same.length,
    low: Math.min(...same),
    high: Math.max(...same),
  };
}

export const COST_SCAN_LIMIT = SCAN;

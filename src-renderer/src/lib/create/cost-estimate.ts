// Cost before Generate: asks the core for an estimate of the form's request (from the account's own
// recent jobs like it) and says it in words, with its basis.
import type { CostEstimateInfo } from '@contract/ipc/jobs.ts';
import { invoke } from '../ipc.ts';

const credits = (n: number) => `${Number.isInteger(n) ? n : n.toFixed(1)} credit${n === 1 ? '' : 's'}`;

export function estimateText(estimate: CostEstimateInfo | null): string {
  if (!estimate || estimate.credits === null) return 'Estimated cost: no history yet for this model and settings.';
  const range =
    estimate.low !== null && estimate.high !== null && estimate.low !== estimate.high
      ? ` (${estimate.low}–${estimate.high})`
      : '';
  const basis = estimate.basedOn === 1 ? 'your last job like this' : `your last ${estimate.basedOn} jobs like this`;
  return `Estimated cost: about ${credits(estimate.credits)}${range}, from ${basis}.`;
}

export const creditsText = credits;

export async function fetchEstimate(
  kind: 'image' | 'video',
  body: Record<string, unknown>,
): Promise<CostEstimateInfo | null> {
  if (typeof body['modelID'] !== 'string') return null;
  const result = await invoke('jobs:estimate', { kind, body: body as { modelID: string } });
  return result.ok ? result.value : null;
}

// What the Experiments view says about an experiment and each cell of its matrix, in the words of the
// screen: its axes ("Model × Aspect ratio"), its progress ("4 of 6 done · 1 failed"), a cell's state
// ("Queued", "Making…", "Failed: …", "Not sent: …"), its cost, and the shape its outputs take before
// their pixels are seen (the size the request asks for, by the contract's one size rule).
import type { ExperimentCellInfo, ExperimentInfo } from '@contract/ipc/experiments.ts';
import { requestedMedia } from '@contract/media-size.ts';
import { clampShape } from '@contract/shape-code.ts';
import { creditsText } from '../create/cost-estimate.ts';
import { requestAspect } from '../library/media-shape.ts';

/** "Model × Aspect ratio" (one axis: its label alone). */
export const axesText = (experiment: Pick<ExperimentInfo, 'axes'>): string =>
  experiment.axes.map((axis) => axis.label).join(' × ');

/** "4 of 6 done · 1 failed" (the failed part only when some did). */
export function progressText(experiment: Pick<ExperimentInfo, 'cellCount' | 'finished' | 'failed'>): string {
  const done = `${experiment.finished} of ${experiment.cellCount} done`;
  return experiment.failed > 0 ? `${done} · ${experiment.failed} failed` : done;
}

/** An experiment's state in one word. */
export const STATE_WORDS: Record<ExperimentInfo['state'], string> = {
  running: 'Running',
  paused: 'Paused',
  cancelled: 'Cancelled',
  done: 'Done',
};

/** The experiment's state in words, with why it stopped when it is paused. */
export function stateText(experiment: Pick<ExperimentInfo, 'state' | 'pausedReason'>): string {
  const word = STATE_WORDS[experiment.state];
  return experiment.state === 'paused' && experiment.pausedReason ? `${word}: ${experiment.pausedReason}` : word;
}

export type CellPhase = 'refused' | 'unsent' | 'queued' | 'making' | 'failed' | 'unknown' | 'done';

/** Where a cell stands, and what it says under its picture (null when its outputs say it all). */
export function cellStatus(
  cell: Pick<ExperimentCellInfo, 'refused' | 'jobState' | 'error' | 'outputs'>,
  experiment: Pick<ExperimentInfo, 'state' | 'pausedReason'>,
): { phase: CellPhase; words: string | null } {
  if (cell.refused !== null) return { phase: 'refused', words: `Not sent: ${cell.refused}` };
  switch (cell.jobState) {
    case null:
      if (experiment.state === 'cancelled') return { phase: 'unsent', words: 'Not sent: the rest was cancelled' };
      if (experiment.state === 'paused')
        return { phase: 'unsent', words: `Not sent: ${lowerFirst(experiment.pausedReason ?? 'paused')}` };
      if (experiment.state === 'done') return { phase: 'unsent', words: 'Not sent' };
      return { phase: 'queued', words: 'Queued' };
    case 'submitting':
    case 'queued':
      return { phase: 'queued', words: 'Queued' };
    case 'running':
      return { phase: 'making', words: 'Making…' };
    case 'failed':
      return { phase: 'failed', words: `Failed: ${cell.error ?? 'the service gave no reason'}` };
    case 'unknown':
      return { phase: 'unknown', words: cell.error ?? 'It may have been sent: see Jobs' };
    case 'succeeded':
      return { phase: 'done', words: cell.outputs.length === 0 ? 'Done: the results are on their way' : null };
  }
}

const lowerFirst = (text: string): string => text.charAt(0).toLowerCase() + text.slice(1);

/** What the cell cost once the service said, else its estimate ("about 2 credits"), else null. */
export function cellCostText(cell: Pick<ExperimentCellInfo, 'estimate'>, credits: number | null = null): string | null {
  if (credits !== null) return creditsText(credits);
  const estimate = cell.estimate.credits;
  return estimate === null ? null : `about ${creditsText(estimate)}`;
}

/** How many pictures or videos the cell's request asks for (1 when it does not say). */
export function expectedOutputs(cell: Pick<ExperimentCellInfo, 'body'>): number {
  const count = cell.body['numImages'] ?? cell.body['numVideos'];
  return typeof count === 'number' && Number.isInteger(count) && count > 0 ? count : 1;
}

/** Width ÷ height the cell's outputs will have: the size its request asks for, else its aspect ratio. */
export function cellShape(cell: Pick<ExperimentCellInfo, 'kind' | 'body'>): number {
  const size = requestedMedia(cell.kind, cell.body);
  if (size.width && size.height) return clampShape(size.width / size.height);
  const asked = requestAspect(cell.body);
  if (asked) return clampShape(asked);
  return cell.kind === 'video' ? 16 / 9 : 1;
}

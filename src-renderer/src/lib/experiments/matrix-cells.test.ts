// The words and shapes of the Experiments view: axes, progress, state, each cell's phase in plain
// words ("Queued", "Making…", "Failed: …", "Not sent: …"), its cost, and the shape its pending outputs
// take from the request (the contract's size rule, else the aspect ratio, else the kind's usual shape).
import { describe, expect, it } from 'vitest';
import type { ExperimentCellInfo } from '@contract/ipc/experiments.ts';
import { fakeCore, installFakeCore } from '../test-support/fake-core.ts';
import { assetRecord } from '../test-support/records.ts';

// The credits' wording is Create's (create/cost-estimate.ts), whose module reaches the bridge.
installFakeCore(fakeCore());
const { axesText, cellCostText, cellShape, cellStatus, expectedOutputs, progressText, stateText } =
  await import('./matrix-cells.ts');

const cell = (overrides: Partial<ExperimentCellInfo> = {}): ExperimentCellInfo => ({
  row: 0,
  column: 0,
  kind: 'image',
  body: { modelID: 'imagea', prompt: 'a lighthouse', aspectRatio: '16:9' },
  estimate: { credits: null, basedOn: 0, low: null, high: null },
  notes: [],
  refused: null,
  jobLocalId: null,
  jobState: null,
  error: null,
  outputs: [],
  ...overrides,
});
const running = { state: 'running', pausedReason: null } as const;

describe('an experiment in words', () => {
  it('names its axes and counts what is done and what failed', () => {
    expect(
      axesText({
        axes: [
          { kind: 'model', key: null, label: 'Model' },
          { kind: 'aspectRatio', key: null, label: 'Aspect ratio' },
        ],
      }),
    ).toBe('Model × Aspect ratio');
    expect(progressText({ cellCount: 6, finished: 4, failed: 1 })).toBe('4 of 6 done · 1 failed');
    expect(progressText({ cellCount: 6, finished: 0, failed: 0 })).toBe('0 of 6 done');
  });

  it('says why it is paused', () => {
    expect(stateText({ state: 'paused', pausedReason: 'Stopped at your daily cap of 200 credits' })).toBe(
      'Paused: Stopped at your daily cap of 200 credits',
    );
    expect(stateText({ state: 'done', pausedReason: null })).toBe('Done');
  });
});

describe("a cell's state", () => {
  it('follows its job: queued, making, failed with the reason, done', () => {
    expect(cellStatus(cell(), running)).toEqual({ phase: 'queued', words: 'Queued' });
    expect(cellStatus(cell({ jobState: 'submitting', jobLocalId: 3 }), running).words).toBe('Queued');
    expect(cellStatus(cell({ jobState: 'running', jobLocalId: 3 }), running)).toEqual({
      phase: 'making',
      words: 'Making…',
    });
    expect(cellStatus(cell({ jobState: 'failed', error: 'The model could not render this prompt.' }), running)).toEqual(
      {
        phase: 'failed',
        words: 'Failed: The model could not render this prompt.',
      },
    );
    expect(cellStatus(cell({ jobState: 'succeeded', outputs: [assetRecord()] }), running)).toEqual({
      phase: 'done',
      words: null,
    });
  });

  it('says a refused cell and a cell a pause or cancel kept back were not sent, and why', () => {
    expect(cellStatus(cell({ refused: 'aspect ratio 4:5 is not offered by Image C' }), running).words).toBe(
      'Not sent: aspect ratio 4:5 is not offered by Image C',
    );
    expect(
      cellStatus(cell(), { state: 'paused', pausedReason: 'Stopped at your daily cap of 200 credits' }).words,
    ).toBe('Not sent: stopped at your daily cap of 200 credits');
    expect(cellStatus(cell(), { state: 'cancelled', pausedReason: null })).toEqual({
      phase: 'unsent',
      words: 'Not sent: the rest was cancelled',
    });
  });
});

describe("a cell's cost and shape", () => {
  it('shows the charge once known, else the estimate as "about", else nothing', () => {
    expect(cellCostText(cell())).toBeNull();
    expect(cellCostText(cell({ estimate: { credits: 2, basedOn: 3, low: 2, high: 2 } }))).toBe('about 2 credits');
    // What the service charged wins over the estimate.
    expect(cellCostText(cell({ estimate: { credits: 2, basedOn: 3, low: 2, high: 2 } }), 1)).toBe('1 credit');
  });

  it('takes the shape the request asks for, for images and videos', () => {
    expect(cellShape(cell())).toBeCloseTo(16 / 9, 2);
    expect(cellShape(cell({ body: { modelID: 'imagea', prompt: 'x', aspectRatio: '9:16' } }))).toBeCloseTo(9 / 16, 2);
    expect(cellShape(cell({ body: { modelID: 'imagea', prompt: 'x' } }))).toBe(1);
    expect(
      cellShape(cell({ kind: 'video', body: { modelID: 'no-such-video-model', prompt: 'x', options: {} } })),
    ).toBeCloseTo(16 / 9, 4);
    expect(cellShape(cell({ body: { modelID: 'mdl_trained', prompt: 'x', width: 512, height: 1024 } }))).toBe(0.5);
  });

  it('expects as many outputs as the request asks for', () => {
    expect(expectedOutputs(cell())).toBe(1);
    expect(expectedOutputs(cell({ body: { modelID: 'imagea', prompt: 'x', numImages: 3 } }))).toBe(3);
  });
});

// The expected time of a batch: each model's typical times from its recent jobs, at the runner's pace.
import { describe, expect, it } from 'vitest';
import { expectedBatchSeconds, type TimeHistory } from './batch-time.ts';

const history: TimeHistory = (kind, modelId) =>
  modelId === 'imagea'
    ? [
        { took: 20_000, answered: 1_000 },
        { took: 30_000, answered: 1_000 },
        { took: 10_000, answered: 3_000 },
      ]
    : modelId === 'imageb'
      ? [{ took: 50_000, answered: null }]
      : [];

const cells = (model: string, n: number) =>
  Array.from({ length: n }, () => ({ kind: 'image' as const, modelId: model }));

describe('expected batch time', () => {
  it('is the median job time when all fit in the first sends', () => {
    expect(expectedBatchSeconds(cells('imagea', 4), history, 4)).toBe(20);
  });

  it('adds a wait for a free slot per round of sends beyond the first', () => {
    // 9 requests, 4 unanswered at once, each answered after 1 s: the ninth is sent at 2 s.
    expect(expectedBatchSeconds(cells('imagea', 9), history, 4)).toBe(22);
    expect(expectedBatchSeconds(cells('imagea', 9), history, 1)).toBe(28);
  });

  it('is the slowest model’s time across models', () => {
    expect(expectedBatchSeconds([...cells('imagea', 2), ...cells('imageb', 1)], history, 4)).toBe(50);
  });

  it('is unknown while a model has no finished job, and 0 for nothing to send', () => {
    expect(expectedBatchSeconds([...cells('imagea', 2), ...cells('imagec-2', 1)], history, 4)).toBeNull();
    expect(expectedBatchSeconds([], history, 4)).toBe(0);
  });
});

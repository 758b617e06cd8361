// Status helpers stay tolerant of unknown and differently-cased values; constants match spec §4 and §8.
import { describe, expect, it } from 'vitest';
import {
  JOB_LIST_RANGE_MS,
  PAGE_SIZE,
  POLL_INTERVALS_MS,
  effectivePageSize,
  isDownloadTerminal,
  isJobSuccess,
  isJobTerminal,
  isModelUsable,
} from './service.ts';

describe('job status', () => {
  it.each(['created', 'queued', 'running', 'QUEUED', ' Running '])('%j is not terminal', (s) => {
    expect(isJobTerminal(s)).toBe(false);
  });
  it.each(['success', 'SUCCESS', 'failed', 'error', 'cancelled', 'something-new', ''])('%j is terminal', (s) => {
    expect(isJobTerminal(s)).toBe(true);
  });
  it('only success is success, in any case', () => {
    expect(isJobSuccess('Success')).toBe(true);
    expect(isJobSuccess('failed')).toBe(false);
    expect(isJobSuccess('running')).toBe(false);
  });
});

describe('model and download status', () => {
  it.each([
    ['ready', true],
    ['READY', true],
    ['new', false],
    ['training', false],
    ['deleted', false],
    ['unknown', false],
  ])('model %j usable: %s', (s, usable) => {
    expect(isModelUsable(s)).toBe(usable);
  });
  it.each([
    ['ready', true],
    ['error', true],
    ['inprogress', false],
    ['pending', false],
  ])('download %j terminal: %s', (s, terminal) => {
    expect(isDownloadTerminal(s)).toBe(terminal);
  });
});

describe('limits and polling', () => {
  it('matches the spec tables', () => {
    expect(POLL_INTERVALS_MS).toMatchObject({
      imageJob: 5_000,
      videoJob: 8_000,
      videoDownload: 5_000,
      training: 300_000,
      trainingGiveUpAfter: 35 * 60_000,
    });
    expect(PAGE_SIZE).toEqual({ min: 1, max: 100, default: 20 });
    expect(JOB_LIST_RANGE_MS).toEqual({ default: 86_400_000, max: 7 * 86_400_000 });
  });
  it.each([
    [1, 1],
    [100, 100],
    ['50', 50],
    [0, 20],
    [101, 20],
    [2.5, 20],
    ['abc', 20],
    ['', 20],
    [undefined, 20],
  ])('pageSize %j → %i', (input, expected) => {
    expect(effectivePageSize(input)).toBe(expected);
  });
});

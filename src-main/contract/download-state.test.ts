import { describe, expect, it } from 'vitest';
import { DOWNLOAD_PHASE, isDownloadMoving, isDownloadUnderWay, isDownloadUnfinished } from './download-state.ts';

const states = Object.keys(DOWNLOAD_PHASE) as (keyof typeof DOWNLOAD_PHASE)[];
const where = (test: (state: (typeof states)[number]) => boolean) => states.filter(test);

describe('what a download state means', () => {
  it('under way: waiting or moving (what the queue counts), never paused or ended', () => {
    expect(where(isDownloadUnderWay)).toEqual(['queued', 'preparing', 'downloading']);
  });
  it('unfinished: under way or paused (it can still be cancelled)', () => {
    expect(where(isDownloadUnfinished)).toEqual(['queued', 'preparing', 'downloading', 'paused']);
  });
  it('moving: the service prepares it or its bytes arrive (there is progress to show)', () => {
    expect(where(isDownloadMoving)).toEqual(['preparing', 'downloading']);
  });
});

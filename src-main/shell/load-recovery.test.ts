import { describe, expect, it } from 'vitest';
import { createLoadRecovery, isFailedResponse, isPageLoadFailure, isRendererLoss } from './load-recovery.ts';

describe('load recovery', () => {
  it('reloads once, then shows the problem page while failures keep coming', () => {
    let now = 1_000;
    const recovery = createLoadRecovery({ now: () => now, graceMs: 60_000 });
    expect(recovery.failed()).toBe('reload');
    now += 2_000;
    expect(recovery.failed()).toBe('problem-page');
    now += 2_000;
    expect(recovery.failed()).toBe('problem-page');
  });

  it('gives a failure long after the last reload its own reload again', () => {
    let now = 0;
    const recovery = createLoadRecovery({ now: () => now, graceMs: 60_000 });
    expect(recovery.failed()).toBe('reload');
    now += 3_600_000;
    expect(recovery.failed()).toBe('reload');
    now += 10;
    expect(recovery.failed()).toBe('problem-page');
  });

  it('tells real failures from aborted loads, sub-frames, good responses and clean exits', () => {
    expect(isPageLoadFailure(-3, true)).toBe(false);
    expect(isPageLoadFailure(-6, false)).toBe(false);
    expect(isPageLoadFailure(-6, true)).toBe(true);
    expect(isFailedResponse(200)).toBe(false);
    expect(isFailedResponse(304)).toBe(false);
    expect(isFailedResponse(404)).toBe(true);
    expect(isRendererLoss('clean-exit')).toBe(false);
    expect(isRendererLoss('crashed')).toBe(true);
    expect(isRendererLoss('oom')).toBe(true);
  });
});

// What the window does when its page fails to load or its renderer process dies: reload once;
// if that fails again soon after, show the load-problem page (Reload, and where the log is)
// instead of reloading forever or leaving a blank window. Pure; window.ts wires it.

export type LoadFailureAction = 'reload' | 'problem-page';

export interface LoadRecovery {
  /** A load failed or the renderer is gone: what to do now. */
  failed(): LoadFailureAction;
}

export interface LoadRecoveryOptions {
  now?: () => number;
  /** A failure this long after the last automatic reload gets a reload of its own again. */
  graceMs?: number;
}

export function createLoadRecovery(options: LoadRecoveryOptions = {}): LoadRecovery {
  const now = options.now ?? Date.now;
  const graceMs = options.graceMs ?? 60_000;
  let lastReload: number | null = null;
  return {
    failed() {
      const at = now();
      if (lastReload !== null && at - lastReload < graceMs) return 'problem-page';
      lastReload = at;
      return 'reload';
    },
  };
}

/** Chromium's net::ERR_ABORTED: a load replaced by another (a reload, a navigation), not a failure. */
export const ERR_ABORTED = -3;

/** did-fail-load arguments that mean the page itself did not load. */
export const isPageLoadFailure = (errorCode: number, isMainFrame: boolean): boolean =>
  isMainFrame && errorCode !== ERR_ABORTED;

/** A main-frame response the page cannot run from (our protocol answers 404 for a missing file). */
export const isFailedResponse = (httpResponseCode: number): boolean => httpResponseCode >= 400;

/** Renderer exits that need no help: the window closing, or the app quitting. */
export const isRendererLoss = (reason: string): boolean => reason !== 'clean-exit';

// The engine's ProgressReporter on the taskbar (Windows, Linux Unity) and the dock (macOS).
import type { ProgressReporter } from '../core/host/progress.ts';

export interface ProgressTarget {
  setProgressBar(progress: number): void;
  isDestroyed(): boolean;
}

/** Electron's encoding: -1 hides the bar, 0..1 is a fraction. */
export function progressBarValue(fraction: number | null): number {
  if (fraction === null || !Number.isFinite(fraction)) return -1;
  return Math.min(Math.max(fraction, 0), 1);
}

export function createTaskbarProgress(target: () => ProgressTarget | null): ProgressReporter {
  let last: number | null = null;
  return {
    set(fraction) {
      const value = progressBarValue(fraction);
      const win = target();
      if (!win || win.isDestroyed() || value === last) return;
      last = value;
      win.setProgressBar(value);
    },
  };
}

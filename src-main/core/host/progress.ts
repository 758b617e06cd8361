// Taskbar/dock progress for long transfers (uploads, downloads). One bar for the whole app,
// so concurrent transfers are added up into one fraction.

export interface ProgressReporter {
  /** 0..1 shows a bar; null hides it. */
  set(fraction: number | null): void;
}

export const hiddenProgress: ProgressReporter = { set() {} };

export interface ProgressAggregate {
  /** `total` null = size unknown yet: counted as running, not in the fraction. */
  update(taskId: string, done: number, total: number | null): void;
  finish(taskId: string): void;
  /** The fraction last reported (null = hidden). */
  current(): number | null;
}

export function aggregateProgress(reporter: ProgressReporter): ProgressAggregate {
  const tasks = new Map<string, { done: number; total: number | null }>();
  let shown: number | null = null;
  const report = (): void => {
    let done = 0;
    let total = 0;
    for (const task of tasks.values()) {
      if (task.total === null || task.total <= 0) continue;
      done += Math.min(Math.max(task.done, 0), task.total);
      total += task.total;
    }
    const next = tasks.size === 0 ? null : total === 0 ? 0 : done / total;
    // The OS redraws on every call: only tell it about visible changes (a tenth of a percent).
    if (next === shown || (next !== null && shown !== null && Math.abs(next - shown) < 0.001 && next !== 1)) return;
    shown = next;
    reporter.set(next);
  };
  return {
    update(taskId, done, total) {
      tasks.set(taskId, { done, total });
      report();
    },
    finish(taskId) {
      if (tasks.delete(taskId)) report();
    },
    current: () => shown,
  };
}

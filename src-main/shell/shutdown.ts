// Quitting waits for the core to close (SQLite checkpointed, downloads paused at a resumable
// point), but never forever: a stuck step is abandoned after a deadline so Quit always quits.

export interface ShutdownStep {
  name: string;
  run(): Promise<void> | void;
}

export interface Shutdown {
  /** Runs every step once, in order; later calls return the same promise. */
  run(): Promise<void>;
  started(): boolean;
}

export function createShutdown(
  steps: readonly ShutdownStep[],
  options: { deadlineMs: number; onProblem?: (step: string, problem: unknown) => void },
): Shutdown {
  let running: Promise<void> | null = null;
  const report = options.onProblem ?? (() => {});
  const runSteps = async (): Promise<void> => {
    for (const step of steps) {
      try {
        await step.run();
      } catch (error) {
        report(step.name, error);
      }
    }
  };
  return {
    run() {
      running ??= new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          report('shutdown', new Error(`gave up waiting after ${options.deadlineMs} ms`));
          resolve();
        }, options.deadlineMs);
        void runSteps().then(() => {
          clearTimeout(timer);
          resolve();
        });
      });
      return running;
    },
    started: () => running !== null,
  };
}

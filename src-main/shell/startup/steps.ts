// The shell's start as a list of named steps: a step that throws is reported by its name (the
// error dialog says what failed), and a quit asked for while starting stops before the next step.

/** A step failed: `step` is the human name shown in the error dialog. */
export class StartupError extends Error {
  readonly step: string;
  constructor(step: string, cause: unknown) {
    super(`${step}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'StartupError';
    this.step = step;
  }
}

/** The app began to quit while starting: not a failure, the remaining steps are skipped. */
export class StartupCancelled extends Error {
  constructor(step: string) {
    super(`quit before: ${step}`);
    this.name = 'StartupCancelled';
  }
}

export interface StartupSteps {
  /** Runs a synchronous step (those that must finish before Electron's 'ready'). */
  run<T>(name: string, action: () => T): T;
  /** Runs a step that may wait. */
  wait<T>(name: string, action: () => Promise<T>): Promise<T>;
  /** The names of the steps begun so far, in order (for the log). */
  begun(): readonly string[];
}

export interface StartupStepsOptions {
  /** True once a quit was asked for. */
  cancelled(): boolean;
  onStep?(name: string): void;
}

export function startupSteps(options: StartupStepsOptions): StartupSteps {
  const begun: string[] = [];
  const begin = (name: string): void => {
    if (options.cancelled()) throw new StartupCancelled(name);
    begun.push(name);
    options.onStep?.(name);
  };
  const wrap = (name: string, error: unknown): Error =>
    error instanceof StartupError || error instanceof StartupCancelled ? error : new StartupError(name, error);
  return {
    run(name, action) {
      begin(name);
      try {
        return action();
      } catch (error) {
        throw wrap(name, error);
      }
    },
    async wait(name, action) {
      begin(name);
      try {
        return await action();
      } catch (error) {
        throw wrap(name, error);
      }
    },
    begun: () => [...begun],
  };
}

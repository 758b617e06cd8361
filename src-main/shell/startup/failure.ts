// The end of a start that failed: the details to the log, what remains open closed, the
// single-instance lock released (so the next launch is not sent to a process about to go), a
// native error box saying what failed and where the log is, and exit code 1.
import { existsSync } from 'node:fs';
import { app, dialog } from 'electron';
import type { Logger } from '../../core/log/index.ts';
import { startupFailureMessage } from './failure-message.ts';
import type { Lifecycle } from './lifecycle.ts';

export interface StartupFailure {
  appName: string;
  error: unknown;
  logger: Logger | null;
  logFile: string;
  lifecycle: Lifecycle | null;
}

/** On Linux an error box before 'ready' goes to stderr only: wait for ready, but not forever. */
const READY_WAIT_MS = 10_000;

export async function failStartup(failure: StartupFailure): Promise<void> {
  const { logger } = failure;
  if (logger) logger.error(`${failure.appName} could not start`, failure.error);
  else process.stderr.write(`${failure.appName} could not start: ${String(failure.error)}\n`);
  const logWritten = logger !== null && existsSync(failure.logFile);
  const text = startupFailureMessage({
    appName: failure.appName,
    error: failure.error,
    logFile: logWritten ? failure.logFile : null,
  });
  try {
    await failure.lifecycle?.closeAll();
  } finally {
    app.releaseSingleInstanceLock();
    if (!app.isReady()) {
      await Promise.race([app.whenReady(), new Promise((resolve) => setTimeout(resolve, READY_WAIT_MS).unref())]);
    }
    dialog.showErrorBox(text.title, text.content);
    app.exit(1);
  }
}

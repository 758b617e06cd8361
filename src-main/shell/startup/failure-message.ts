// What the native error box says when the app cannot start: which step failed, the cause in
// one line, and where the log is (or that none could be written). Pure.
import { StartupError } from './steps.ts';

export interface StartupFailureFacts {
  appName: string;
  error: unknown;
  /** The log file the details went to; null when even the log could not be written. */
  logFile: string | null;
}

export interface ErrorBoxText {
  title: string;
  content: string;
}

const oneLine = (text: string, max = 600): string => {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
};

const causeOf = (error: unknown): unknown => (error instanceof StartupError ? error.cause : error);

const messageOf = (error: unknown): string => {
  const cause = causeOf(error);
  if (cause instanceof Error) return oneLine(cause.message || cause.name);
  return oneLine(String(cause));
};

export function startupFailureMessage(facts: StartupFailureFacts): ErrorBoxText {
  const step = facts.error instanceof StartupError ? facts.error.step : 'Starting';
  const where = facts.logFile
    ? `Details are in the log: ${facts.logFile}`
    : 'No log could be written (the data folder is not usable).';
  return {
    title: `${facts.appName} could not start`,
    content: [`${step} failed:`, messageOf(facts.error), '', where, '', `${facts.appName} will now close.`].join('\n'),
  };
}

// How the CLI ends: exit codes per kind of failure, and the error type commands throw to end early.
import type { ErrorInfo } from '../contract/errors.ts';

export const EXIT = {
  ok: 0,
  /** Something unexpected on this machine (a bug, a full disk). */
  failure: 1,
  /**
   * The request or the command line was refused before anything was sent. `atelier batch`: a row
   * was refused (the valid ones were sent with --yes), or nothing was sent without --yes.
   */
  usage: 2,
  /** The service answered with an error (NOK, 4xx/5xx), or a job ended unsuccessfully. */
  service: 3,
  /** The service could not be reached. */
  network: 4,
  /**
   * The wait cannot end here: downloads are paused (the library's disk is nearly full, the user
   * paused them, the library folder moves). Nothing is lost; the next run resumes them.
   */
  paused: 5,
  /** Ctrl-C: the wait stopped; the work goes on and is picked up on the next run. */
  interrupted: 130,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** Thrown by commands to stop with a specific code; `info` is what `--json` prints. */
export class CliError extends Error {
  readonly info: ErrorInfo;
  readonly exitCode: ExitCode;
  constructor(info: ErrorInfo, exitCode: ExitCode = exitCodeFor(info)) {
    super(info.message);
    this.name = 'CliError';
    this.info = info;
    this.exitCode = exitCode;
  }
}

export const usageError = (message: string, field?: string): CliError =>
  new CliError({ code: 'invalid_argument', message, ...(field ? { field } : {}) }, EXIT.usage);

export function exitCodeFor(info: ErrorInfo): ExitCode {
  switch (info.code) {
    case 'invalid_argument':
    case 'validation':
    case 'over_budget':
      return EXIT.usage;
    case 'network':
    case 'offline':
      return EXIT.network;
    case 'auth':
    case 'not_found':
    case 'rate_limited':
    case 'server':
    case 'malformed_response':
    case 'conflict':
      return EXIT.service;
    default:
      return EXIT.failure;
  }
}

/**
 * The lines a failure prints on stderr. Refusals name each field on its own line; service
 * errors read `err: message` (with the service's own `err` value and HTTP status after it).
 */
export function errorLines(info: ErrorInfo, exitCode: ExitCode): string[] {
  if (exitCode === EXIT.usage) {
    const problems =
      info.fields && info.fields.length > 0 ? info.fields : [{ field: info.field ?? '', message: info.message }];
    return problems.map(({ field, message }) => fieldLine(field, message));
  }
  if (exitCode === EXIT.service) {
    // The client's messages often name the HTTP status and err already; say them once.
    const detail = [info.serviceErr, info.httpStatus === undefined ? undefined : `HTTP ${info.httpStatus}`].filter(
      (part): part is string => Boolean(part) && !info.message.includes(part as string),
    );
    return [`err: ${info.message}${detail.length > 0 ? ` (${detail.join(', ')})` : ''}`];
  }
  if (exitCode === EXIT.network) return [`network error: ${info.message}`];
  if (exitCode === EXIT.interrupted || exitCode === EXIT.paused) return [info.message];
  return [`error: ${info.message}`];
}

/** `field: message`, unless the message already starts by naming the field. */
export function fieldLine(field: string, message: string): string {
  if (field === '' || message.startsWith(field)) return message;
  return `${field}: ${message}`;
}

// Typed errors of the service client: one class, codes by HTTP status, the service's own `err`,
// and messages that tell the user what to do. Built from plain data only, never from a library
// error object (those carry request options, including the Authorization header).
import { AppError, type ErrorCode, type ErrorInfo } from '../../contract/errors.ts';
import { redact } from '../log/redact.ts';

/** Where a request went, for messages: method and path template, never a full URL with query. */
export interface RequestLabel {
  method: string;
  template: string;
}

interface ErrorExtra {
  networkCode?: string;
  unsent?: boolean;
  label?: RequestLabel;
}

export class ServiceError extends AppError {
  /** The service's `err` value, when it answered with a NOK envelope. */
  readonly serviceErr: string | undefined;
  readonly httpStatus: number | undefined;
  readonly retryAfterMs: number | undefined;
  /** System error code behind a network failure (ECONNREFUSED, ETIMEDOUT…), for logs and retry decisions. */
  readonly networkCode: string | undefined;
  /** A network failure before any byte reached the server (unsent.ts decides). */
  readonly unsent: boolean;
  readonly method: string | undefined;
  readonly template: string | undefined;

  constructor(info: ErrorInfo, extra: ErrorExtra = {}) {
    super(info);
    this.name = 'ServiceError';
    this.serviceErr = info.serviceErr;
    this.httpStatus = info.httpStatus;
    this.retryAfterMs = info.retryAfterMs;
    this.networkCode = extra.networkCode;
    this.unsent = extra.unsent ?? false;
    this.method = extra.label?.method;
    this.template = extra.label?.template;
  }
}

/** Every error the client creates goes through here, so nothing unredacted can slip into one. */
export function serviceError(
  info: ErrorInfo,
  secrets: readonly (string | null | undefined)[],
  extra: ErrorExtra = {},
): ServiceError {
  const clean: ErrorInfo = { ...info, message: redact(info.message, secrets) };
  if (info.serviceErr !== undefined) clean.serviceErr = redact(info.serviceErr, secrets).slice(0, 200);
  if (info.fields) clean.fields = info.fields.map((f) => ({ field: f.field, message: redact(f.message, secrets) }));
  return new ServiceError(clean, extra);
}

const describeCall = (label: RequestLabel): string => `${label.method} ${label.template}`;

/** What the service said, trimmed to something that fits in a message. */
function serviceText(message: string | undefined): string {
  const text = (message ?? '').replace(/\s+/g, ' ').trim();
  return text.length > 500 ? `${text.slice(0, 500)}…` : text;
}

export function codeForStatus(status: number): ErrorCode {
  if (status === 401 || status === 403) return 'auth';
  if (status === 404) return 'not_found';
  if (status === 409) return 'conflict';
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'server';
  return 'validation';
}

/** A NOK envelope inside a 2xx answer has no status to go by; its `err` is the only hint. */
export function codeForServiceErr(err: string): ErrorCode {
  const e = err.toLowerCase();
  if (/unauthori[sz]ed|forbidden|auth/.test(e)) return 'auth';
  if (/not[_\s-]?found/.test(e)) return 'not_found';
  if (/rate|too[_\s-]?many/.test(e)) return 'rate_limited';
  if (/internal|unavailable|server/.test(e)) return 'server';
  return 'validation';
}

export interface FailureAnswer {
  label: RequestLabel;
  httpStatus: number;
  /** From a NOK envelope, when the body was one. */
  serviceErr?: string;
  serviceMessage?: string;
  retryAfterMs?: number;
}

/** The error for a non-2xx answer or a NOK envelope. */
export function errorFromAnswer(answer: FailureAnswer, secrets: readonly (string | null | undefined)[]): ServiceError {
  const { label, httpStatus, serviceErr, retryAfterMs } = answer;
  const said = serviceText(answer.serviceMessage);
  const ok2xx = httpStatus >= 200 && httpStatus < 300;
  const code = ok2xx ? codeForServiceErr(serviceErr ?? '') : codeForStatus(httpStatus);
  const status = ` (HTTP ${httpStatus}${serviceErr ? `, ${serviceErr}` : ''})`;
  let message: string;
  switch (code) {
    case 'auth':
      message = `The service refused the API key${status}. Enter a new key in Settings; the current one may be wrong, revoked or missing access.`;
      break;
    case 'not_found':
      message = `${said || `Nothing found for ${describeCall(label)}`}${status}. It may have been deleted or belong to another account.`;
      break;
    case 'rate_limited':
      message =
        retryAfterMs !== undefined
          ? `The service is busy${status}: try again in ${Math.max(1, Math.ceil(retryAfterMs / 1000))} s.${said ? ` ${said}` : ''}`
          : `The service is busy${status}: try again shortly.${said ? ` ${said}` : ''}`;
      break;
    case 'server':
      message = `The service had a problem with ${describeCall(label)}${status}. Try again later.${said ? ` ${said}` : ''}`;
      break;
    default:
      message = `${said || `The service refused ${describeCall(label)}`}${status}`;
  }
  const info: ErrorInfo = { code, message, httpStatus };
  if (serviceErr !== undefined) info.serviceErr = serviceErr;
  if (retryAfterMs !== undefined) info.retryAfterMs = retryAfterMs;
  return serviceError(info, secrets, { label });
}

export function malformedError(
  label: RequestLabel,
  httpStatus: number | undefined,
  reason: string,
  secrets: readonly (string | null | undefined)[],
  advice = 'If this keeps happening, check the service address in Settings.',
): ServiceError {
  const info: ErrorInfo = {
    code: 'malformed_response',
    message: `The service's answer to ${describeCall(label)} could not be used: ${reason}. ${advice}`,
  };
  if (httpStatus !== undefined) info.httpStatus = httpStatus;
  return serviceError(info, secrets, { label });
}

const NETWORK_REASONS: Record<string, string> = {
  ECONNREFUSED: 'the connection was refused',
  ECONNRESET: 'the connection was reset',
  ENOTFOUND: 'the host name could not be resolved',
  EAI_AGAIN: 'the host name could not be resolved (DNS did not answer)',
  ETIMEDOUT: 'the request timed out',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  EPIPE: 'the connection was closed while sending',
  ECONNABORTED: 'the connection was aborted',
};

export function networkError(
  label: RequestLabel,
  host: string,
  networkCode: string,
  secrets: readonly (string | null | undefined)[],
  unsent = false,
): ServiceError {
  const reason = NETWORK_REASONS[networkCode] ?? `the connection failed (${networkCode})`;
  return serviceError(
    {
      code: 'network',
      message: `Could not reach the service at ${host} for ${describeCall(label)}: ${reason}. Check your connection and the service address.`,
    },
    secrets,
    { label, networkCode, unsent },
  );
}

export function missingKeyError(label: RequestLabel): ServiceError {
  return new ServiceError(
    { code: 'auth', message: `No API key is set, so ${describeCall(label)} was not sent. Enter a key in Settings.` },
    { label },
  );
}

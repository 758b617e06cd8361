// Error codes shared by main, renderer, CLI and emulator: errors cross every boundary as data.

export const ERROR_CODES = [
  'invalid_argument', // arguments refused before any work (field names the culprit)
  'validation', // a generation/upload request broke a rule of the service spec
  'auth', // 401/403: the key is missing, wrong or revoked
  'not_found',
  'rate_limited', // 429; retryAfterMs tells how long to wait
  'server', // 5xx
  'network', // connection refused, reset, timed out, DNS
  'malformed_response', // the service answered something that is not the spec's envelope
  'conflict',
  'over_budget', // a paid request whose estimate would pass the user's daily or monthly credit cap
  'disk_full',
  'offline',
  'unsupported', // the running platform cannot do this (e.g. no Electron binary)
  'internal',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** The one error shape that crosses process boundaries. Never carries the API key. */
export interface ErrorInfo {
  code: ErrorCode;
  message: string;
  /** Dotted path of the offending field, e.g. `options.imagea.imageSize`. */
  field?: string;
  /** All field problems when several were found at once. */
  fields?: { field: string; message: string }[];
  /** The service's own `err` value and HTTP status, when the error came from it. */
  serviceErr?: string;
  httpStatus?: number;
  retryAfterMs?: number;
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: ErrorInfo };

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const fail = (error: ErrorInfo): Result<never> => ({ ok: false, error });

/** Thrown inside main; converted to `{ ok: false, error }` at the boundary. */
export class AppError extends Error {
  readonly info: ErrorInfo;
  constructor(info: ErrorInfo) {
    super(info.message);
    this.name = 'AppError';
    this.info = info;
  }
}

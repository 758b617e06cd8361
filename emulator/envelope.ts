// The spec §1 response envelope and the one error type route handlers throw to produce a NOK answer.

export interface OkEnvelope<T> {
  result: T;
  status: 'OK';
}

export interface NokEnvelope {
  err: string;
  message: string;
  result: null;
  status: 'NOK';
}

export interface PageFields {
  hasMore: boolean;
  nextCursor: string;
  page: number;
  pageSize: number;
}

export const okEnvelope = <T>(result: T): OkEnvelope<T> => ({ result, status: 'OK' });

export const okPage = <T>(result: T[], page: PageFields): OkEnvelope<T[]> & PageFields => ({
  result,
  ...page,
  status: 'OK',
});

export const nokEnvelope = (err: string, message: string): NokEnvelope => ({
  err,
  message,
  result: null,
  status: 'NOK',
});

/** The `err` values the emulator uses (the spec leaves them open; see README). */
export type ServiceErrCode =
  | 'bad_request'
  | 'validation_error'
  | 'unauthorized'
  | 'unsupported_api_version'
  | 'forbidden'
  | 'not_found'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'too_many_trainings'
  | 'internal_error'
  | 'service_unavailable';

/** Thrown by handlers; the server's error handler turns it into a NOK envelope with this HTTP status. */
export class ServiceError extends Error {
  readonly httpStatus: number;
  readonly err: ServiceErrCode;
  readonly headers: Record<string, string>;

  constructor(httpStatus: number, err: ServiceErrCode, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = 'ServiceError';
    this.httpStatus = httpStatus;
    this.err = err;
    this.headers = headers;
  }
}

export const badRequest = (message: string): ServiceError => new ServiceError(400, 'bad_request', message);

/** A refused field: the message always starts with the field's dotted path. */
export const invalidField = (field: string, message: string): ServiceError =>
  new ServiceError(400, 'validation_error', `${field}: ${message}`);

export const notFound = (what: string, id: string): ServiceError =>
  new ServiceError(404, 'not_found', `${what} ${JSON.stringify(id)} was not found`);

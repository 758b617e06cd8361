// The one HTTP door to the service: a single `got` instance (base URL, bearer key read at request
// time, API-Version, timeouts, keep-alive), the envelope unwrapped into a value or a typed error,
// the retry loop driven by retry-policy.ts, and one log line per attempt (no headers, no bodies).
import type { Agent as HttpAgent } from 'node:http';
import type { Agent as HttpsAgent } from 'node:https';
import type { Got, Progress, RequestError, Response } from 'got';
import { AppError } from '../../contract/errors.ts';
import { API_VERSION } from '../../contract/service.ts';
import type { Logger } from '../log/logger.ts';
import {
  errorFromAnswer,
  malformedError,
  missingKeyError,
  networkError,
  type RequestLabel,
  type ServiceError,
} from './errors.ts';
import { parseEnvelope } from './envelope.ts';
import {
  DEFAULT_RETRY_POLICY,
  decideRetry,
  parseRetryAfterMs,
  reasonableRetryAfterMs,
  realTiming,
  type AttemptFailure,
  type RetryClass,
  type RetryPolicyOptions,
  type RetryTiming,
} from './retry-policy.ts';
import { failedUnsent } from './unsent.ts';

export interface ClientTimeouts {
  /** DNS + TCP (+ TLS) connection. */
  connectMs: number;
  /** From the request being sent to the response headers. */
  responseMs: number;
  /** Whole request, ordinary calls. */
  requestMs: number;
  /** Whole request, uploads (up to 20 MB on a slow line). */
  uploadMs: number;
}

/**
 * The largest answer body the client reads (after decompression). The service's biggest answers
 * (a page of 1,000 records) are a few MB; a body past this is refused as it streams in, so a
 * broken or hostile service cannot make the process hold hundreds of MB.
 */
export const DEFAULT_MAX_ANSWER_BYTES = 32 * 1024 * 1024;

export const DEFAULT_TIMEOUTS: ClientTimeouts = {
  connectMs: 10_000,
  responseMs: 30_000,
  requestMs: 60_000,
  uploadMs: 5 * 60_000,
};

export interface TransportOptions {
  baseUrl: string;
  getApiKey: () => string | null;
  logger: Logger;
  timeouts?: Partial<ClientTimeouts>;
  retry?: Partial<RetryPolicyOptions>;
  /** Sleep, randomness and clock of the retry loop (tests inject them). */
  timing?: Partial<RetryTiming>;
  userAgent?: string;
  /** Answers larger than this are refused (default DEFAULT_MAX_ANSWER_BYTES). */
  maxAnswerBytes?: number;
  /** Told after every attempt whether the service answered (any HTTP status) or could not be reached. */
  onReach?: (reached: boolean) => void;
}

export interface RequestSpec extends RequestLabel {
  method: 'GET' | 'POST' | 'DELETE';
  /** Relative to the base URL, segments already encoded, no leading slash: `models/abc/images`. */
  path: string;
  searchParams?: Record<string, string | number | undefined>;
  json?: unknown;
  body?: { bytes: Uint8Array; contentType: string };
  retryClass: RetryClass;
  onUploadProgress?: (progress: Progress) => void;
  signal?: AbortSignal | undefined;
}

/** An OK envelope: the result and the whole body (paginated answers keep their cursor fields there). */
export interface OkAnswer {
  result: unknown;
  body: Record<string, unknown>;
  httpStatus: number;
}

export interface Transport {
  request(spec: RequestSpec): Promise<OkAnswer>;
  /** The API key and anything else that must never appear in an error or log line. */
  secrets(): (string | null)[];
  close(): void;
}

type AttemptOutcome = { ok: true; answer: OkAnswer } | { ok: false; error: ServiceError; failure: AttemptFailure };

/** Thrown by the beforeRequest hook; got wraps it, its code survives. */
const NO_API_KEY = 'ATELIER_NO_API_KEY';

const megabytes = (bytes: number): string => `${Math.max(1, Math.round(bytes / (1024 * 1024)))} MB`;

function normalizeBaseUrl(baseUrl: string): URL {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new AppError({ code: 'invalid_argument', field: 'baseUrl', message: 'The service address is not a URL.' });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new AppError({
      code: 'invalid_argument',
      field: 'baseUrl',
      message: 'The service address must start with https:// (or http://).',
    });
  }
  if (url.username || url.password) {
    throw new AppError({
      code: 'invalid_argument',
      field: 'baseUrl',
      message: 'The service address must not contain a user name or password.',
    });
  }
  url.search = '';
  url.hash = '';
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url;
}

function searchParamsOf(params: RequestSpec['searchParams']): Record<string, string | number> | undefined {
  if (!params) return undefined;
  const out: Record<string, string | number> = {};
  for (const [key, value] of Object.entries(params)) if (value !== undefined) out[key] = value;
  return Object.keys(out).length > 0 ? out : undefined;
}

export function createTransport(options: TransportOptions): Transport {
  const base = normalizeBaseUrl(options.baseUrl);
  const host = base.host;
  const timeouts: ClientTimeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  const policy: RetryPolicyOptions = { ...DEFAULT_RETRY_POLICY, ...options.retry };
  const timing: RetryTiming = { ...realTiming, ...options.timing };
  const log = options.logger;
  const maxAnswerBytes = options.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES;

  const readKey = (): string | null => {
    try {
      const key = options.getApiKey();
      return typeof key === 'string' && key.length > 0 ? key : null;
    } catch {
      return null;
    }
  };
  const secrets = (): (string | null)[] => [readKey()];

  // got (and what it pulls in) and node:http(s) are loaded at the first request, not at start-up:
  // the first screen reads the local cache only, loading got costs more than the rest of a start,
  // and importing node:http loads Node's own fetch (undici) with it (bench scenario 5).
  let agents: { http: HttpAgent; https: HttpsAgent } | null = null;
  let client: Promise<Got> | null = null;
  const clientOf = (): Promise<Got> =>
    (client ??= Promise.all([import('got'), import('node:http'), import('node:https')]).then(([got, http, https]) => {
      agents = {
        http: new http.Agent({ keepAlive: true, maxSockets: 8 }),
        https: new https.Agent({ keepAlive: true, maxSockets: 8 }),
      };
      return createGot(got.default, agents);
    }));

  const createGot = (got: Got, agent: { http: HttpAgent; https: HttpsAgent }): Got =>
    got.extend({
      prefixUrl: base.href,
      // Every path is built here from encoded segments; an absolute URL would carry the key elsewhere.
      allowAbsoluteUrls: false,
      headers: {
        'api-version': API_VERSION,
        accept: 'application/json',
        'user-agent': options.userAgent ?? 'Atelier',
      },
      agent,
      http2: false,
      // Retrying is retry-policy.ts's job alone; got must never repeat a request on its own.
      retry: { limit: 0 },
      throwHttpErrors: false,
      // The bearer key must not follow a redirect anywhere; a redirect is reported instead.
      followRedirect: false,
      timeout: {
        lookup: timeouts.connectMs,
        connect: timeouts.connectMs,
        secureConnect: timeouts.connectMs,
        response: timeouts.responseMs,
        request: timeouts.requestMs,
      },
      hooks: {
        beforeRequest: [
          (requestOptions) => {
            // Read at request time: a key changed in Settings applies to the very next request.
            const key = readKey();
            if (key === null) throw Object.assign(new Error('No API key is set'), { code: NO_API_KEY });
            requestOptions.headers['authorization'] = `Bearer ${key}`;
          },
        ],
      },
    });

  function classifyThrown(error: unknown, spec: RequestSpec): AttemptOutcome {
    const e = error as Partial<RequestError> & { event?: string };
    if (e.code === NO_API_KEY) return { ok: false, error: missingKeyError(spec), failure: { kind: 'final' } };
    if (e.response) {
      // Headers arrived but the body did not finish: the answer was cut off.
      return {
        ok: false,
        error: malformedError(
          spec,
          e.response.statusCode,
          'the answer was cut off before it ended',
          secrets(),
          'Try again.',
        ),
        failure: { kind: 'truncated' },
      };
    }
    if (e.name === 'TimeoutError') {
      // Failures before any byte could reach the server: repeating them cannot duplicate anything.
      const unsent = failedUnsent({ timeoutPhase: e.event ?? '' });
      return {
        ok: false,
        error: networkError(spec, host, 'ETIMEDOUT', secrets(), unsent),
        failure: { kind: 'network', unsent },
      };
    }
    const code = typeof e.code === 'string' ? e.code : 'ECONNRESET';
    const unsent = failedUnsent({ networkCode: code });
    return {
      ok: false,
      error: networkError(spec, host, code, secrets(), unsent),
      failure: { kind: 'network', unsent },
    };
  }

  function classifyResponse(response: Response<string>, spec: RequestSpec): AttemptOutcome {
    const httpStatus = response.statusCode;
    // An unreasonable Retry-After (years) is dropped here: the caller's own backoff decides then.
    const retryAfterMs = reasonableRetryAfterMs(parseRetryAfterMs(response.headers['retry-after'], timing.now()));
    const envelope = parseEnvelope(response.body);
    const is2xx = httpStatus >= 200 && httpStatus < 300;
    if (is2xx && envelope.kind === 'ok') {
      return { ok: true, answer: { result: envelope.result, body: envelope.body, httpStatus } };
    }
    if (httpStatus >= 300 && httpStatus < 400) {
      return {
        ok: false,
        error: malformedError(spec, httpStatus, `it redirected elsewhere (HTTP ${httpStatus})`, secrets()),
        failure: { kind: 'final' },
      };
    }
    if (is2xx && envelope.kind === 'invalid') {
      return {
        ok: false,
        error: malformedError(spec, httpStatus, envelope.reason, secrets()),
        failure: { kind: 'final' },
      };
    }
    // A failure: a NOK envelope, or a non-2xx answer (whose body may be anything, e.g. a proxy's HTML page).
    const error = errorFromAnswer(
      {
        label: spec,
        httpStatus,
        ...(envelope.kind === 'nok' && envelope.err !== undefined ? { serviceErr: envelope.err } : {}),
        ...(envelope.kind === 'nok' && envelope.message !== undefined ? { serviceMessage: envelope.message } : {}),
        ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
      },
      secrets(),
    );
    const failure: AttemptFailure = { kind: 'status', status: httpStatus };
    if (retryAfterMs !== undefined) failure.retryAfterMs = retryAfterMs;
    return { ok: false, error, failure };
  }

  function tooLarge(spec: RequestSpec): AttemptOutcome {
    return {
      ok: false,
      error: malformedError(
        spec,
        undefined,
        `it was larger than ${megabytes(maxAnswerBytes)}, the most Atelier reads, so it was not read to the end`,
        secrets(),
        'If this keeps happening, check the service address in Settings or tell the service provider.',
      ),
      failure: { kind: 'final' },
    };
  }

  async function attempt(spec: RequestSpec): Promise<AttemptOutcome> {
    const upload = spec.body !== undefined;
    // Aborted as soon as the (declared or counted, decompressed) body passes the limit.
    const sizeLimit = new AbortController();
    const signal = spec.signal ? AbortSignal.any([spec.signal, sizeLimit.signal]) : sizeLimit.signal;
    try {
      const promise = (await clientOf())(spec.path, {
        method: spec.method,
        searchParams: searchParamsOf(spec.searchParams),
        ...(spec.json !== undefined ? { json: spec.json } : {}),
        ...(spec.body
          ? {
              body: Buffer.from(spec.body.bytes.buffer, spec.body.bytes.byteOffset, spec.body.bytes.byteLength),
              headers: { 'content-type': spec.body.contentType },
            }
          : {}),
        ...(upload ? { timeout: { request: timeouts.uploadMs } } : {}),
        signal,
        responseType: 'text',
      });
      if (spec.onUploadProgress) promise.on('uploadProgress', spec.onUploadProgress);
      promise.on('downloadProgress', (progress: Progress) => {
        if (sizeLimit.signal.aborted) return;
        if (progress.transferred > maxAnswerBytes || (progress.total ?? 0) > maxAnswerBytes) sizeLimit.abort();
      });
      return classifyResponse(await promise, spec);
    } catch (error) {
      if (spec.signal?.aborted) throw spec.signal.reason;
      if (sizeLimit.signal.aborted) return tooLarge(spec);
      return classifyThrown(error, spec);
    }
  }

  /** A missing key sends nothing, so it says nothing about the service. */
  function reportReach(outcome: AttemptOutcome): void {
    if (!options.onReach) return;
    if (outcome.ok) options.onReach(true);
    else if (outcome.failure.kind === 'network') options.onReach(false);
    else if (outcome.error.httpStatus !== undefined) options.onReach(true);
  }

  async function request(spec: RequestSpec): Promise<OkAnswer> {
    const label = `${spec.method} ${spec.template}`;
    for (let attemptNo = 1; ; attemptNo++) {
      const started = performance.now();
      const outcome = await attempt(spec);
      const ms = Math.round(performance.now() - started);
      reportReach(outcome);
      if (outcome.ok) {
        log.info(`${label} ${outcome.answer.httpStatus}`, { ms, ...(attemptNo > 1 ? { attempt: attemptNo } : {}) });
        return outcome.answer;
      }
      const { error, failure } = outcome;
      const decision = decideRetry(spec.retryClass, failure, attemptNo, policy, timing.random);
      log.warn(`${label} ${error.httpStatus ?? error.networkCode ?? error.info.code}`, {
        ms,
        attempt: attemptNo,
        code: error.info.code,
        ...(error.serviceErr ? { serviceErr: error.serviceErr } : {}),
        ...(decision.retry ? { retryInMs: decision.delayMs } : { gaveUp: decision.reason }),
      });
      if (!decision.retry) throw error;
      await timing.sleep(decision.delayMs, spec.signal);
    }
  }

  return {
    request,
    secrets,
    close() {
      agents?.http.destroy();
      agents?.https.destroy();
    },
  };
}

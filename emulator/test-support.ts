// Test helpers shared by the emulator's own tests: start an emulator and talk to it over real HTTP.
import sharp from 'sharp';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from './index.ts';

export interface Envelope {
  status: 'OK' | 'NOK';
  result: unknown;
  err?: string;
  message?: string;
  hasMore?: boolean;
  nextCursor?: string;
  page?: number;
  pageSize?: number;
}

export interface ApiResponse<T = unknown> {
  http: number;
  headers: Headers;
  body: Envelope & { result: T };
}

export class Api {
  readonly baseUrl: string;
  readonly key: string | null;

  /** `null` sends no Authorization header at all. */
  constructor(baseUrl: string, key: string | null = 'demo-key') {
    this.baseUrl = baseUrl;
    this.key = key;
  }

  headers(extra: Record<string, string> = {}): Record<string, string> {
    return { ...(this.key === null ? {} : { authorization: `Bearer ${this.key}` }), 'api-version': '1', ...extra };
  }

  async request<T = unknown>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<ApiResponse<T>> {
    const init: RequestInit = { method, headers: this.headers(headers) };
    if (body !== undefined) {
      init.body = JSON.stringify(body);
      (init.headers as Record<string, string>)['content-type'] = 'application/json';
    }
    const res = await fetch(`${this.baseUrl}${path}`, init);
    return { http: res.status, headers: res.headers, body: (await res.json()) as Envelope & { result: T } };
  }

  get<T = unknown>(path: string, headers?: Record<string, string>): Promise<ApiResponse<T>> {
    return this.request<T>('GET', path, undefined, headers);
  }

  post<T = unknown>(path: string, body: unknown): Promise<ApiResponse<T>> {
    return this.request<T>('POST', path, body);
  }

  delete<T = unknown>(path: string): Promise<ApiResponse<T>> {
    return this.request<T>('DELETE', path);
  }

  /** Result of a call that must succeed; fails the test with the NOK message otherwise. */
  async ok<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await this.request<T>(method, path, body);
    if (res.http !== 200 || res.body.status !== 'OK') {
      throw new Error(`${method} ${path} → ${res.http} ${res.body.err ?? ''}: ${res.body.message ?? ''}`);
    }
    return res.body.result;
  }

  async upload(
    modelID: string,
    type: string,
    bytes: Uint8Array,
    fileName = 'photo.png',
  ): Promise<ApiResponse<Record<string, unknown>>> {
    const form = new FormData();
    form.append('data', JSON.stringify({ modelID, type }));
    form.append('file', new Blob([new Uint8Array(bytes)]), fileName);
    const res = await fetch(`${this.baseUrl}/images/upload`, { method: 'POST', headers: this.headers(), body: form });
    return {
      http: res.status,
      headers: res.headers,
      body: (await res.json()) as Envelope & { result: Record<string, unknown> },
    };
  }
}

export async function startTestEmulator(
  options: EmulatorOptions = {},
): Promise<{ emulator: RunningEmulator; api: Api }> {
  const emulator = await startEmulator({ seed: 1, apiKeys: ['demo-key', 'other-key'], ...options });
  return { emulator, api: new Api(emulator.url) };
}

let pngCache: Buffer | undefined;

/** A small real PNG (cached: most tests only need some valid image). */
export async function smallPng(): Promise<Buffer> {
  pngCache ??= await sharp({ create: { width: 64, height: 48, channels: 3, background: '#3366cc' } })
    .png()
    .toBuffer();
  return pngCache;
}

export async function smallImage(format: 'jpeg' | 'webp'): Promise<Buffer> {
  const base = sharp({ create: { width: 32, height: 32, channels: 3, background: '#cc6633' } });
  return format === 'jpeg' ? base.jpeg().toBuffer() : base.webp().toBuffer();
}

/** The first bytes of an HEIC file (ftyp box with the heic brand): enough for magic-byte detection. */
export function heicHeader(): Buffer {
  const box = Buffer.alloc(24);
  box.writeUInt32BE(24, 0);
  box.write('ftypheic', 4, 'latin1');
  box.writeUInt32BE(0, 12);
  box.write('mif1heic', 16, 'latin1');
  return Buffer.concat([box, Buffer.alloc(64)]);
}

export async function createModel(api: Api, modelType?: string): Promise<string> {
  const model = await api.ok<{ id: string }>('POST', '/models', modelType ? { modelType } : {});
  return model.id;
}

export async function uploadMany(api: Api, modelID: string, type: string, count: number): Promise<void> {
  const png = await smallPng();
  for (let i = 0; i < count; i += 1) {
    const res = await api.upload(modelID, type, png);
    if (res.http !== 200) throw new Error(`upload ${i} failed: ${res.body.message ?? res.http}`);
  }
}

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;

/** One row of a request-rule table: a body and, when it must be refused, the field the refusal names. */
export interface RuleCase {
  name: string;
  body: Record<string, unknown>;
  refused?: string;
}

/**
 * A generation endpoint's answer reduced so a table row can compare it with `toEqual`: accepted is
 * 200 OK with a `job_…` id, queued; refused is 400 NOK naming each refused field at the start of its
 * part of the message (`field: …; other.field: …`).
 */
export interface Verdict {
  http: number;
  status: string;
  err?: string;
  fields?: string[];
  job?: string;
}

/** The verdict a row expects: accepted, or refused naming exactly `refused`. */
export function expectedVerdict(refused?: string): Verdict {
  return refused === undefined
    ? { http: 200, status: 'OK', job: 'queued' }
    : { http: 400, status: 'NOK', err: 'validation_error', fields: [refused] };
}

/** Posts `body`; returns the verdict and the service's message (to show when a row fails). */
export async function postVerdict(
  api: Api,
  path: string,
  body: unknown,
): Promise<{ verdict: Verdict; message: string }> {
  const res = await api.post<{ jobId?: unknown; status?: unknown } | null>(path, body);
  const message = res.body.message ?? '';
  if (res.body.status === 'OK') {
    const { jobId, status } = res.body.result ?? {};
    const job = typeof jobId === 'string' && /^job_/.test(jobId) ? String(status) : `no job id (${String(jobId)})`;
    return { verdict: { http: res.http, status: 'OK', job }, message: JSON.stringify(res.body.result) };
  }
  // Parts are joined by '; '; a part naming a field starts with its dotted path (no spaces) and ': '.
  const parts = message.split('; ');
  const named = (part: string): string | undefined => /^([A-Za-z][\w.[\]]*): /.exec(part)?.[1];
  const fields = parts.map(named).filter((f): f is string => f !== undefined);
  if (named(parts[0] ?? '') === undefined) fields.unshift('(message names no field first)');
  return { verdict: { http: res.http, status: res.body.status, err: res.body.err, fields }, message };
}

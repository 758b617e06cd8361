// Fault knobs: per-route or global rules (latency, 429, 5xx, drops, truncation, bad JSON, media cuts) and job/download failures.
import type { JobKind } from './records.ts';
import { SeededRandom } from './random.ts';

/** When a knob fires: the next `count` matching requests, each with `probability` (both optional). */
export interface FaultTrigger {
  count?: number;
  probability?: number;
}

export interface FaultRule {
  /** HTTP method; omitted or `*` = any. */
  method?: string;
  /** Route pattern such as `/jobs/:id`, `/media/*` or an exact path; omitted = every route (global). */
  path?: string;
  latencyMs?: number;
  rateLimit?: FaultTrigger & { retryAfterSeconds?: number };
  serverError?: FaultTrigger & { status?: number };
  dropConnection?: FaultTrigger;
  truncateBody?: FaultTrigger;
  malformedJson?: FaultTrigger;
  cutMediaAfterBytes?: FaultTrigger & { bytes: number };
}

export interface FaultConfig {
  rules?: FaultRule[];
  jobFailure?: FaultTrigger & { kinds?: JobKind[]; message?: string };
  downloadFailure?: FaultTrigger & { message?: string };
}

export type RequestAction =
  { kind: 'drop' } | { kind: 'rateLimit'; retryAfterSeconds: number } | { kind: 'serverError'; status: number };

export interface RequestFaults {
  latencyMs: number;
  action?: RequestAction;
  response?: 'truncate' | 'malformed';
  cutMediaAfterBytes?: number;
}

const JOB_KINDS: readonly JobKind[] = ['image', 'upscale', 'video', 'training'];

function compilePath(pattern: string): RegExp {
  const parts = pattern.split('/').map((segment) => {
    if (segment === '*') return '.*';
    if (segment.startsWith(':')) return '[^/]+';
    return segment.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*');
  });
  return new RegExp(`^${parts.join('/')}$`);
}

interface LiveRule {
  rule: FaultRule;
  method: string | undefined;
  path: RegExp | undefined;
}

export class FaultEngine {
  private config: FaultConfig = {};
  private rules: LiveRule[] = [];
  private readonly random: SeededRandom;

  constructor(seed: number) {
    this.random = new SeededRandom(seed ^ 0x5bd1e995);
  }

  /** Replaces every knob. The config is copied so counters can run down without touching the caller's object. */
  set(config: FaultConfig): void {
    const copy = parseFaultConfig(config);
    this.config = copy;
    this.rules = (copy.rules ?? []).map((rule) => ({
      rule,
      method: rule.method && rule.method !== '*' ? rule.method.toUpperCase() : undefined,
      path: rule.path ? compilePath(rule.path) : undefined,
    }));
  }

  clear(): void {
    this.set({});
  }

  /** Current knobs with their remaining counts. */
  current(): FaultConfig {
    return structuredClone(this.config);
  }

  private fires(trigger: FaultTrigger | undefined): boolean {
    if (!trigger) return false;
    if (trigger.count !== undefined && trigger.count <= 0) return false;
    if (trigger.probability !== undefined && this.random.next() >= trigger.probability) return false;
    if (trigger.count !== undefined) trigger.count -= 1;
    return true;
  }

  decideRequest(method: string, path: string, area: 'api' | 'media'): RequestFaults {
    const matching = this.rules
      .filter((r) => (!r.method || r.method === method.toUpperCase()) && (!r.path || r.path.test(path)))
      .map((r) => r.rule);
    const out: RequestFaults = { latencyMs: matching.reduce((sum, r) => sum + (r.latencyMs ?? 0), 0) };
    // One action per request: the first knob that fires wins and later knobs keep their counts.
    for (const rule of matching) {
      if (this.fires(rule.dropConnection)) return { ...out, action: { kind: 'drop' } };
    }
    for (const rule of matching) {
      if (this.fires(rule.rateLimit)) {
        return { ...out, action: { kind: 'rateLimit', retryAfterSeconds: rule.rateLimit?.retryAfterSeconds ?? 1 } };
      }
    }
    for (const rule of matching) {
      if (this.fires(rule.serverError))
        return { ...out, action: { kind: 'serverError', status: rule.serverError?.status ?? 503 } };
    }
    if (area === 'media') {
      for (const rule of matching) {
        if (this.fires(rule.cutMediaAfterBytes))
          return { ...out, cutMediaAfterBytes: rule.cutMediaAfterBytes?.bytes ?? 0 };
      }
      return out;
    }
    for (const rule of matching) {
      if (this.fires(rule.truncateBody)) return { ...out, response: 'truncate' };
    }
    for (const rule of matching) {
      if (this.fires(rule.malformedJson)) return { ...out, response: 'malformed' };
    }
    return out;
  }

  /** Failure text for a new job of this kind, or undefined when it should succeed. */
  decideJobFailure(kind: JobKind): string | undefined {
    const knob = this.config.jobFailure;
    if (!knob || (knob.kinds && !knob.kinds.includes(kind))) return undefined;
    return this.fires(knob)
      ? (knob.message ?? `The ${kind} job failed (injected by the emulator's jobFailure knob)`)
      : undefined;
  }

  decideDownloadFailure(): string | undefined {
    const knob = this.config.downloadFailure;
    return this.fires(knob) ? (knob?.message ?? 'Download preparation failed (injected by the emulator)') : undefined;
  }
}

function fail(field: string, message: string): never {
  throw new FaultConfigError(`${field}: ${message}`);
}

export class FaultConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FaultConfigError';
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function parseTrigger(value: unknown, field: string, extra: string[] = []): Record<string, unknown> | undefined {
  if (value === undefined) return undefined;
  if (!isObject(value)) fail(field, 'must be an object');
  for (const key of Object.keys(value)) {
    if (!['count', 'probability', ...extra].includes(key)) fail(`${field}.${key}`, 'unknown knob setting');
  }
  const { count, probability } = value;
  if (count !== undefined && (!Number.isInteger(count) || (count as number) < 0))
    fail(`${field}.count`, 'must be a non-negative integer');
  if (probability !== undefined && (typeof probability !== 'number' || probability < 0 || probability > 1)) {
    fail(`${field}.probability`, 'must be a number from 0 to 1');
  }
  return { ...value };
}

function positiveNumber(value: unknown, field: string, integer = false): void {
  if (value === undefined) return;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || (integer && !Number.isInteger(value))) {
    fail(field, `must be a non-negative ${integer ? 'integer' : 'number'}`);
  }
}

/** Checks untrusted JSON (control API, CLI) and returns a deep copy safe to mutate. */
export function parseFaultConfig(input: unknown): FaultConfig {
  if (input === undefined || input === null) return {};
  if (!isObject(input)) fail('faults', 'must be an object');
  for (const key of Object.keys(input)) {
    if (!['rules', 'jobFailure', 'downloadFailure'].includes(key)) fail(key, 'unknown fault setting');
  }
  const out: FaultConfig = {};
  if (input.rules !== undefined) {
    if (!Array.isArray(input.rules)) fail('rules', 'must be an array');
    out.rules = input.rules.map((raw: unknown, i: number) => {
      const at = `rules[${i}]`;
      if (!isObject(raw)) fail(at, 'must be an object');
      const rule: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(raw)) {
        switch (key) {
          case 'method':
          case 'path':
            if (typeof value !== 'string' || value === '') fail(`${at}.${key}`, 'must be a non-empty string');
            rule[key] = value;
            break;
          case 'latencyMs':
            positiveNumber(value, `${at}.latencyMs`);
            rule[key] = value;
            break;
          case 'rateLimit': {
            const t = parseTrigger(value, `${at}.rateLimit`, ['retryAfterSeconds']);
            positiveNumber(t?.retryAfterSeconds, `${at}.rateLimit.retryAfterSeconds`, true);
            rule[key] = t;
            break;
          }
          case 'serverError': {
            const t = parseTrigger(value, `${at}.serverError`, ['status']);
            const status = t?.status;
            if (
              status !== undefined &&
              (!Number.isInteger(status) || (status as number) < 500 || (status as number) > 599)
            ) {
              fail(`${at}.serverError.status`, 'must be an HTTP status from 500 to 599');
            }
            rule[key] = t;
            break;
          }
          case 'cutMediaAfterBytes': {
            const t = parseTrigger(value, `${at}.cutMediaAfterBytes`, ['bytes']);
            if (t?.bytes === undefined) fail(`${at}.cutMediaAfterBytes.bytes`, 'is required');
            positiveNumber(t.bytes, `${at}.cutMediaAfterBytes.bytes`, true);
            rule[key] = t;
            break;
          }
          case 'dropConnection':
          case 'truncateBody':
          case 'malformedJson':
            rule[key] = parseTrigger(value, `${at}.${key}`);
            break;
          default:
            fail(`${at}.${key}`, 'unknown rule setting');
        }
      }
      return rule as FaultRule;
    });
  }
  if (input.jobFailure !== undefined) {
    const t = parseTrigger(input.jobFailure, 'jobFailure', ['kinds', 'message']);
    if (t?.kinds !== undefined) {
      if (!Array.isArray(t.kinds) || !t.kinds.every((k) => JOB_KINDS.includes(k as JobKind))) {
        fail('jobFailure.kinds', `must be an array of ${JOB_KINDS.join(', ')}`);
      }
      t.kinds = [...(t.kinds as JobKind[])];
    }
    if (t?.message !== undefined && typeof t.message !== 'string') fail('jobFailure.message', 'must be a string');
    out.jobFailure = t as FaultConfig['jobFailure'];
  }
  if (input.downloadFailure !== undefined) {
    const t = parseTrigger(input.downloadFailure, 'downloadFailure', ['message']);
    if (t?.message !== undefined && typeof t.message !== 'string') fail('downloadFailure.message', 'must be a string');
    out.downloadFailure = t as FaultConfig['downloadFailure'];
  }
  return out;
}

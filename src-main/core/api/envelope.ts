// The service's JSON envelope (spec §1, §7): recognises OK and NOK bodies, reads the cursor fields
// of paginated lists, and checks a result against its schema. Pure: no I/O, no error objects.
import * as v from 'valibot';

/** Any object with a string `status`; the rest is read field by field below. */
const EnvelopeSchema = v.looseObject({
  status: v.string(),
  result: v.optional(v.unknown()),
  err: v.optional(v.unknown()),
  message: v.optional(v.unknown()),
});

const PageFieldsSchema = v.object({
  hasMore: v.boolean(),
  nextCursor: v.fallback(v.nullish(v.string()), ''),
  page: v.fallback(v.number(), 0),
  pageSize: v.fallback(v.number(), 0),
});

export type ParsedEnvelope =
  | { kind: 'ok'; result: unknown; body: Record<string, unknown> }
  | { kind: 'nok'; err?: string; message?: string }
  /** Not JSON, or JSON that is not the envelope; `reason` says which, for the error message. */
  | { kind: 'invalid'; reason: string };

const asText = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** Reads a response body. Status strings are compared case-insensitively; anything but OK/NOK is invalid. */
export function parseEnvelope(text: string): ParsedEnvelope {
  if (text.trim() === '') return { kind: 'invalid', reason: 'the body was empty' };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { kind: 'invalid', reason: 'the body is not JSON' };
  }
  const parsed = v.safeParse(EnvelopeSchema, json);
  if (!parsed.success) return { kind: 'invalid', reason: 'the body is not the service envelope (no status)' };
  const body = parsed.output;
  const status = body.status.trim().toUpperCase();
  if (status === 'NOK') {
    const out: ParsedEnvelope = { kind: 'nok' };
    const err = asText(body.err);
    const message = asText(body.message);
    if (err !== undefined) out.err = err;
    if (message !== undefined) out.message = message;
    return out;
  }
  if (status === 'OK') {
    if (!('result' in body)) return { kind: 'invalid', reason: 'an OK envelope without a result' };
    return { kind: 'ok', result: body.result, body };
  }
  return { kind: 'invalid', reason: `the envelope status "${body.status.slice(0, 40)}" is neither OK nor NOK` };
}

export interface PageFields {
  hasMore: boolean;
  nextCursor: string;
  page: number;
  pageSize: number;
}

/** The cursor fields next to `result` in a paginated answer; null when they are missing or wrong. */
export function readPageFields(body: Record<string, unknown>): PageFields | null {
  const parsed = v.safeParse(PageFieldsSchema, body);
  if (!parsed.success) return null;
  return { ...parsed.output, nextCursor: parsed.output.nextCursor ?? '' };
}

/** Checks a result against its schema: the value, or a short reason naming the first bad field. */
export function checkResult<T>(
  schema: v.GenericSchema<unknown, T>,
  result: unknown,
): { ok: true; value: T } | { ok: false; reason: string } {
  const parsed = v.safeParse(schema, result);
  if (parsed.success) return { ok: true, value: parsed.output };
  const issue = parsed.issues[0];
  const path = issue ? v.getDotPath(issue) : null;
  return {
    ok: false,
    reason: `result${path ? `.${path}` : ''} ${issue?.message ?? 'has the wrong shape'}`.slice(0, 300),
  };
}

// Removes secrets from anything headed for a log line or an error: known key values, bearer tokens,
// Authorization header values, credentials in URLs, and fields whose names say they hold a secret.

export const REDACTED = '[redacted]';

/** Shorter values are too likely to occur by chance in ordinary text to be replaced blindly. */
const MIN_SECRET_LENGTH = 4;

const BEARER_TOKEN = /\b(bearer)(\s+)[^\s"'\\,;]+/gi;
/** `Authorization: Basic x`, `"authorization":"Bearer x"`, `authorization=x`: the optional scheme and its credential. */
const AUTH_HEADER_VALUE = /\b((?:proxy-)?authorization)("?\s*[:=]\s*"?)(?:[a-z][\w-]*\s+)?[^\s"',;]+/gi;
const URL_CREDENTIALS = /(\/\/)[^/\s:@]+:[^/\s@]+@/g;
const SECRET_QUERY_PARAM = /([?&](?:api[_-]?key|access[_-]?token|token|key)=)[^&\s#"']+/gi;
/** Field names whose values are never logged, whatever they contain. */
const SECRET_FIELD =
  /^(?:(?:proxy-)?authorization|api[_-]?key|x-api-key|password|secret|token|access[_-]?token|cookie|set-cookie)$/i;

const MAX_DEPTH = 8;

/** The forms a secret can take in text: as is, percent-encoded (URLs) and JSON-escaped. */
function variants(secrets: readonly (string | null | undefined)[]): string[] {
  const out = new Set<string>();
  for (const secret of secrets) {
    if (typeof secret !== 'string' || secret.length < MIN_SECRET_LENGTH) continue;
    out.add(secret);
    out.add(encodeURIComponent(secret));
    out.add(JSON.stringify(secret).slice(1, -1));
  }
  // Longest first, so a secret that contains another is replaced whole.
  return [...out].sort((a, b) => b.length - a.length);
}

/** Runs this long matching a secret's start count as the secret: messages often quote values cut short. */
const PREFIX_RUN = 12;

/** Replaces every run of at least PREFIX_RUN characters that matches the start of `secret`. */
function redactPrefixRuns(text: string, secret: string): string {
  if (secret.length <= PREFIX_RUN) return text;
  const head = secret.slice(0, PREFIX_RUN);
  let out = '';
  let from = 0;
  for (let at = text.indexOf(head); at !== -1; at = text.indexOf(head, from)) {
    let end = at + PREFIX_RUN;
    while (end < text.length && end - at < secret.length && text[end] === secret[end - at]) end++;
    out += text.slice(from, at) + REDACTED;
    from = end;
  }
  return out + text.slice(from);
}

/** Text with every known secret and every bearer/Authorization/URL credential replaced by `[redacted]`. */
export function redact(text: string, secrets: readonly (string | null | undefined)[] = []): string {
  let out = String(text);
  for (const secret of variants(secrets)) out = redactPrefixRuns(out.split(secret).join(REDACTED), secret);
  return out
    .replace(AUTH_HEADER_VALUE, `$1$2${REDACTED}`)
    .replace(BEARER_TOKEN, `$1$2${REDACTED}`)
    .replace(URL_CREDENTIALS, `$1${REDACTED}@`)
    .replace(SECRET_QUERY_PARAM, `$1${REDACTED}`);
}

/** An error as plain, redacted data (name, message, code, stack); causes are followed a few levels deep. */
export function redactError(
  error: Error,
  secrets: readonly (string | null | undefined)[],
  depth = 0,
): Record<string, unknown> {
  const out: Record<string, unknown> = { name: error.name, message: redact(error.message, secrets) };
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' || typeof code === 'number') out['code'] = code;
  const info = (error as { info?: unknown }).info;
  if (info !== undefined) out['info'] = redactValue(info, secrets, depth + 1);
  if (error.stack) out['stack'] = redact(error.stack, secrets);
  if (error.cause !== undefined && depth < 3) out['cause'] = redactValue(error.cause, secrets, depth + 1);
  return out;
}

/**
 * A deep copy that is safe to log: strings redacted, secret-named fields replaced, errors flattened,
 * binary data summarised, cycles and very deep nesting cut off. Never throws.
 */
export function redactValue(
  value: unknown,
  secrets: readonly (string | null | undefined)[],
  depth = 0,
  seen: WeakSet<object> = new WeakSet(),
): unknown {
  if (typeof value === 'string') return redact(value, secrets);
  if (value === null || typeof value !== 'object') {
    return typeof value === 'bigint' || typeof value === 'symbol' || typeof value === 'function'
      ? String(value)
      : value;
  }
  if (seen.has(value)) return '[circular]';
  if (depth >= MAX_DEPTH) return '[nested too deep]';
  seen.add(value);
  try {
    if (value instanceof Error) return redactError(value, secrets, depth);
    if (value instanceof Date) return value.toISOString();
    if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return `[${value.byteLength} bytes]`;
    if (Array.isArray(value)) return value.map((item) => redactValue(item, secrets, depth + 1, seen));
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      out[key] = SECRET_FIELD.test(key) ? REDACTED : redactValue(item, secrets, depth + 1, seen);
    }
    return out;
  } catch {
    return '[unreadable]';
  } finally {
    seen.delete(value);
  }
}

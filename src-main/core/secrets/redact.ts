// Last line of defence for text that may have passed near a secret (error messages from libraries).

export const REDACTED = '[redacted]';

/** Replaces every occurrence of each secret (of a plausible length) in text. */
export function redactSecrets(text: string, secrets: readonly (string | null | undefined)[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret && secret.length >= 4) out = out.split(secret).join(REDACTED);
  }
  return out;
}

/** The forms a key takes in service text: as is, and percent-encoded (echoed inside a URL). */
function secretForms(secrets: readonly (string | null | undefined)[]): string[] {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (!secret || secret.length < 4) continue;
    forms.add(secret);
    forms.add(encodeURIComponent(secret));
  }
  return [...forms].sort((a, b) => b.length - a.length);
}

/**
 * A copy of a parsed service answer with every known secret removed from its strings (a service
 * that echoes the key in a job's error text must not get it stored and shown). Only exact
 * occurrences are replaced, so signed media URLs and other values stay as they are.
 */
export function redactSecretsDeep<T>(value: T, secrets: readonly (string | null | undefined)[]): T {
  const forms = secretForms(secrets);
  if (forms.length === 0) return value;
  const walk = (item: unknown): unknown => {
    if (typeof item === 'string') return forms.some((f) => item.includes(f)) ? redactSecrets(item, forms) : item;
    if (Array.isArray(item)) return item.map(walk);
    if (item !== null && typeof item === 'object') {
      const out: Record<string, unknown> = {};
      for (const [key, inner] of Object.entries(item)) out[key] = walk(inner);
      return out;
    }
    return item;
  };
  return walk(value) as T;
}

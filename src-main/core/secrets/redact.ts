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

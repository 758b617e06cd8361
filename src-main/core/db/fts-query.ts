// Turns what the user typed into a safe FTS5 query: words only (no operators, no syntax errors),
// every word a prefix, all words required, so results narrow as the user types.

const WORD = /[\p{L}\p{N}]+/gu;
const MAX_WORDS = 12;
const MAX_WORD_LENGTH = 64;
/**
 * A one-letter prefix matches most of a library and costs a scan of it; searching starts at two
 * characters (a half-typed "sunset b" searches "sunset" until the next letter arrives).
 */
const MIN_WORD_LENGTH = 2;

/** `sunset bea` → `"sunset"* "bea"*`; NULL when there is nothing to search for. */
export function toFtsQuery(input: string): string | null {
  const words = (input.normalize('NFKC').match(WORD) ?? [])
    .filter((word) => [...word].length >= MIN_WORD_LENGTH)
    .slice(0, MAX_WORDS)
    .map((word) => word.slice(0, MAX_WORD_LENGTH));
  if (words.length === 0) return null;
  // Words hold letters and digits only, so quoting cannot be broken out of.
  return words.map((word) => `"${word}"*`).join(' ');
}

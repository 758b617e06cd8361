// `{a|b|c}` wildcards of a batch: a cell's text with groups of alternatives expands to every
// combination. Decided here once, for the CLI, the core and the renderer:
// - a group holds one or more alternatives split by `|`; an alternative may be empty (`{red |}`)
//   and may hold groups of its own (`{a {big|small}|c}` → "a big", "a small", "c");
// - `\{`, `\}`, `\|` and `\\` are the characters themselves; a `|` outside any group is plain text;
// - an unmatched `{` or `}` is refused with where it is, never guessed;
// - several groups multiply, the first group varying slowest (reading order).
// The count is known before anything is expanded, so a list that would make more than
// BATCH_MAX_JOBS jobs is refused without building it.

/** The most jobs one batch may expand to (a typo like `{1|2|…}` × 5 columns is caught, not sent). */
export const BATCH_MAX_JOBS = 10_000;

type Piece = string | Group;
interface Group {
  alternatives: Piece[][];
}

export class WildcardError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WildcardError';
  }
}

const ESCAPABLE = new Set(['{', '}', '|', '\\']);

/** The text as pieces: plain runs and groups. Throws WildcardError on an unmatched brace. */
function parse(text: string): Piece[] {
  let at = 0;
  const sequence = (inGroup: boolean): { pieces: Piece[]; end: '|' | '}' | null } => {
    const pieces: Piece[] = [];
    let run = '';
    const flush = () => {
      if (run !== '') pieces.push(run);
      run = '';
    };
    while (at < text.length) {
      const ch = text[at]!;
      if (ch === '\\' && at + 1 < text.length && ESCAPABLE.has(text[at + 1]!)) {
        run += text[at + 1];
        at += 2;
        continue;
      }
      if (ch === '{') {
        const opened = at;
        at += 1;
        flush();
        const alternatives: Piece[][] = [];
        for (;;) {
          const part = sequence(true);
          alternatives.push(part.pieces);
          if (part.end === '}') break;
          if (part.end === null)
            throw new WildcardError(
              `the "{" at character ${opened + 1} is never closed (write \\{ for a brace itself)`,
            );
        }
        pieces.push({ alternatives });
        continue;
      }
      if (inGroup && (ch === '|' || ch === '}')) {
        at += 1;
        flush();
        return { pieces, end: ch };
      }
      if (ch === '}')
        throw new WildcardError(`the "}" at character ${at + 1} closes no "{" (write \\} for a brace itself)`);
      run += ch;
      at += 1;
    }
    flush();
    return { pieces, end: null };
  };
  return sequence(false).pieces;
}

function countOf(pieces: readonly Piece[]): number {
  let total = 1;
  for (const piece of pieces) {
    if (typeof piece === 'string') continue;
    let sum = 0;
    for (const alternative of piece.alternatives) sum += countOf(alternative);
    total *= sum;
    // Past the cap the exact figure no longer matters; stop before it overflows to Infinity.
    if (total > Number.MAX_SAFE_INTEGER / 1e6) return Number.MAX_SAFE_INTEGER;
  }
  return total;
}

function expandPieces(pieces: readonly Piece[]): string[] {
  let results = [''];
  for (const piece of pieces) {
    if (typeof piece === 'string') {
      results = results.map((text) => text + piece);
      continue;
    }
    const options = piece.alternatives.flatMap(expandPieces);
    const next: string[] = [];
    for (const text of results) for (const option of options) next.push(text + option);
    results = next;
  }
  return results;
}

/** A cell's text, parsed once: how many texts it makes, and the texts. */
export interface Wildcard {
  readonly count: number;
  expand(): string[];
}

/** Parses `text`; throws WildcardError (in plain words, with the character) on an unmatched brace. */
export function wildcard(text: string): Wildcard {
  if (!text.includes('{') && !text.includes('}') && !text.includes('\\')) return { count: 1, expand: () => [text] };
  const pieces = parse(text);
  return { count: countOf(pieces), expand: () => expandPieces(pieces) };
}

/** Every text `text` expands to (a text without groups is itself; escapes are resolved). */
export function expandWildcards(text: string): string[] {
  return wildcard(text).expand();
}

/** How many texts `text` expands to, without expanding it. */
export function wildcardCount(text: string): number {
  return wildcard(text).count;
}

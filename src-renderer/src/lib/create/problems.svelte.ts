// Finding the validation problem that belongs to a form field, and the ones no field shows; which
// problems are shown yet (a field's once it was touched, every one after a submit attempt).
import { SvelteSet } from 'svelte/reactivity';
import type { FieldProblem } from '@contract/rules/index.ts';

/** Paths of fields the user changed, and whether a submit was tried. */
export class TouchedFields {
  readonly #paths = new SvelteSet<string>();
  submitted = $state(false);

  add(path: string): void {
    this.#paths.add(path);
  }

  /** A field counts as touched when it, its list or one of its items was. */
  has(path: string): boolean {
    if (this.submitted) return true;
    const list = path.replace(/\[\d+\].*$/, '');
    return this.#paths.has(path) || this.#paths.has(list);
  }

  reset(): void {
    this.#paths.clear();
    this.submitted = false;
  }
}

/** The problem of a field, if it is shown yet. */
export function problemShown(problems: readonly FieldProblem[], path: string, touched: TouchedFields): string | null {
  return touched.has(path) ? problemAt(problems, path) : null;
}

/** The first problem of exactly this field path. */
export function problemAt(problems: readonly FieldProblem[], path: string): string | null {
  return problems.find((p) => p.field === path)?.message ?? null;
}

/** Problems of a list field and of its items ('referenceImageURLs', 'referenceImageURLs[2]', 'referenceImages[0].url'). */
export function problemsUnder(problems: readonly FieldProblem[], path: string): FieldProblem[] {
  return problems.filter((p) => p.field === path || p.field.startsWith(`${path}[`) || p.field.startsWith(`${path}.`));
}

/** The problem of one list item, e.g. itemProblem(problems, 'referenceImages', 2). */
export function itemProblem(problems: readonly FieldProblem[], list: string, index: number): string | null {
  const prefix = `${list}[${index}]`;
  return problems.find((p) => p.field === prefix || p.field.startsWith(`${prefix}.`))?.message ?? null;
}

/** Problems whose field is not among the paths the form shows: listed above Generate so none goes unseen. */
export function unplacedProblems(problems: readonly FieldProblem[], shown: readonly string[]): FieldProblem[] {
  return problems.filter(
    (p) => !shown.some((path) => p.field === path || p.field.startsWith(`${path}[`) || p.field.startsWith(`${path}.`)),
  );
}

/** The Generate button's reason line (the messages are already in the form's words). */
export function blockingReason(problems: readonly FieldProblem[]): string | null {
  const first = problems[0];
  if (!first) return null;
  return problems.length === 1 ? first.message : `${first.message} (and ${problems.length - 1} more)`;
}

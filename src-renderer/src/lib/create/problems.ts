// Finding the validation problem that belongs to a form field, and the ones no field shows.
import type { FieldProblem } from '@contract/rules/index.ts';

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

/** The Generate button's reason line. Messages keep their case: they often start with a field or model id. */
export function blockingReason(problems: readonly FieldProblem[]): string | null {
  const first = problems[0];
  if (!first) return null;
  return problems.length === 1 ? first.message : `${first.message} (and ${problems.length - 1} more)`;
}

// The one wording of a refused generation request, for every side that refuses one: the core
// where the request enters it, the service client's wire guard, and the CLI before it opens the core.
import type { ErrorInfo } from '../errors.ts';
import type { FieldProblem } from './common.ts';

export function refusalInfo(problems: readonly FieldProblem[]): ErrorInfo {
  const first = problems[0];
  return {
    code: 'validation',
    message:
      problems.length === 1 && first
        ? first.message
        : `${problems.length} settings need attention: ${first?.message ?? 'the request was refused.'}`,
    ...(first?.field ? { field: first.field } : {}),
    fields: problems.map((p) => ({ field: p.field, message: p.message })),
  };
}

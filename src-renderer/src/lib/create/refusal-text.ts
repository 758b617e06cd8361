// The words of a refused generation: the core's reason, plus the field problems its message does
// not already say (a single problem is usually the message itself: said once, not twice).
import type { ErrorInfo } from '@contract/errors.ts';

export function refusalText(error: ErrorInfo): string {
  const extra = [...new Set((error.fields ?? []).map((f) => f.message))].filter((m) => !error.message.includes(m));
  return extra.length > 0 ? `${error.message} ${extra.join('; ')}` : error.message;
}

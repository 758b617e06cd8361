// Server-side request checks: the shared contract rules first, then what only the server's state can tell.
import { normalize, validate, type FieldProblem, type GenerationRequest } from '../src-main/contract/rules/index.ts';
import { ServiceError } from './envelope.ts';

/** One 400 NOK for all problems; each part of the message starts with the field it is about. */
export function refuse(problems: FieldProblem[]): void {
  if (problems.length === 0) return;
  const message = problems.map((p) => (p.field ? `${p.field}: ${p.message}` : p.message)).join('; ');
  throw new ServiceError(400, 'validation_error', message);
}

/** Validates with the rules the client uses, then applies the service's forced values and drops. */
export function acceptedBody(kind: GenerationRequest['kind'], body: unknown): Record<string, unknown> {
  refuse(validate({ kind, body } as GenerationRequest));
  return normalize({ kind, body } as GenerationRequest).body as Record<string, unknown>;
}

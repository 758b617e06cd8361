// A generation request (image, video, upscale) as the core and the client see it: checked against
// the model's rules and normalised ONCE, where it enters the core (checkedRequest, called by the
// jobs outbox); the client then sends what it is given, behind a wire guard that only makes sure
// it can choose the endpoint and send JSON. Both refuse in the rules' own words (refusalInfo).
import { AppError, type ErrorInfo } from '../../contract/errors.ts';
import type { ImageGenerationBody, UpscaleBody, VideoGenerationBody } from '../../contract/service.ts';
import {
  GENERATION_KINDS,
  normalize,
  refusalInfo,
  validate,
  type FieldProblem,
  type GenerationRequest,
} from '../../contract/rules/index.ts';
import { isRecord } from '../../contract/rules/common.ts';

/** A request the client can send: the kind chooses the endpoint, the body goes as JSON. */
export type TriggerRequest =
  | { kind: 'image'; body: ImageGenerationBody }
  | { kind: 'upscale'; body: UpscaleBody }
  | { kind: 'video'; body: VideoGenerationBody };

export function refusedRequest(problems: readonly FieldProblem[]): AppError {
  return new AppError(refusalInfo(problems));
}

/**
 * The one check of a generation request: the shared rules (a request that breaks one never leaves
 * the machine), then the normalised request: only the fields and option group the chosen model
 * accepts, with the service's forced values.
 */
export function checkedRequest(request: GenerationRequest): TriggerRequest {
  const problems = validate(request);
  if (problems.length > 0) throw refusedRequest(problems);
  return normalize(request) as TriggerRequest;
}

/**
 * The client's wire guard: what it cannot send at all (an unknown kind has no endpoint, a body that
 * is not an object is not a request), refused in the same words as checkedRequest. Everything else
 * is the core's to judge.
 */
export function wireRefusal(request: unknown): ErrorInfo | null {
  const kind = isRecord(request) ? request['kind'] : undefined;
  const known = (GENERATION_KINDS as readonly unknown[]).includes(kind);
  if (known && isRecord((request as { body?: unknown }).body)) return null;
  return refusalInfo(validate(request as GenerationRequest));
}

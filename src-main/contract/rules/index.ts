// Per-model request rules of spec §4 and §8: one validate/notices/normalize API for renderer, core and emulator.
import type { FieldProblem, GenerationRequest } from './common.ts';
import { describe, isNonEmptyString, isRecord, pick, problem, unknownKeyProblems } from './common.ts';
import { imageNotices, normalizeImageBody, validateImageBody } from './validate-image.ts';
import { normalizeVideoBody, validateVideoBody, videoNotices } from './validate-video.ts';

export type { FieldProblem, GenerationRequest, ProblemDetail, SettingSpec, SettingsTable } from './common.ts';
export { formMessage, inFormWords, type FormWords } from './messages.ts';
export { refusalInfo } from './refusal.ts';
export {
  providedModelDescription,
  publicModelFamilies,
  publicModelName,
  publicModelWords,
  type ModelFamilyGroup,
  type ModelWords,
} from './model-names.ts';
export { defaultsFor, modelFamily } from './defaults.ts';
export type { ModelFamily } from './defaults.ts';
export {
  IMAGE_ASPECT_RATIOS,
  PUBLIC_IMAGE_MODELS,
  PUBLIC_IMAGE_MODEL_IDS,
  TRAINED_IMAGE_FIELDS,
  isPublicImageModel,
} from './image-models.ts';
export type { PublicImageModelId, PublicImageModelRules } from './image-models.ts';
export {
  IMAGEC_LIMITS,
  IMAGEC_PIXEL_BUDGET,
  explainImagecSize,
  floorToEdgeMultiple,
  resolveImagecSize,
} from './imagec-size.ts';
export { UPLOAD_RULES, detectImageFormat, uploadFormatFromName, validateUploadData } from './upload.ts';
export type { DetectedImageFormat } from './upload.ts';
export { BACKEND_ONLY_FIELDS, VIDEO_MODELS, VIDEO_MODEL_IDS, isVideoModel } from './video-models.ts';
export type { VideoFamily, VideoModelId, VideoModelRules } from './video-models.ts';

/** The kinds of generation request, each with its own endpoint. */
export const GENERATION_KINDS = ['image', 'video', 'upscale'] as const;
const KINDS: readonly string[] = GENERATION_KINDS;

function requestProblem(request: unknown): FieldProblem | null {
  if (!isRecord(request) || !KINDS.includes(request['kind'] as string)) {
    return problem(
      '',
      `a generation request must be { kind: image | video | upscale, body }; you gave ${describe(request)}`,
    );
  }
  return null;
}

function validateUpscaleBody(body: unknown): FieldProblem[] {
  if (!isRecord(body))
    return [problem('', `the upscaling body must be a JSON object { imageID }; you gave ${describe(body)}`)];
  const problems = unknownKeyProblems(body, ['imageID'], '', 'upscaling');
  if (!isNonEmptyString(body['imageID'])) {
    problems.push(
      problem('imageID', `imageID is required: the id of the image to upscale; you gave ${describe(body['imageID'])}`),
    );
  }
  return problems;
}

/** Blocking problems; [] means the service would accept the body. Never throws, whatever the input. */
export function validate(request: GenerationRequest): FieldProblem[] {
  const bad = requestProblem(request);
  if (bad) return [bad];
  switch (request.kind) {
    case 'image':
      return validateImageBody(request.body);
    case 'video':
      return validateVideoBody(request.body);
    case 'upscale':
      return validateUpscaleBody(request.body);
  }
}

/** Non-blocking warnings: things the service will silently change or ignore. Never throws. */
export function notices(request: GenerationRequest): FieldProblem[] {
  if (requestProblem(request)) return [];
  switch (request.kind) {
    case 'image':
      return imageNotices(request.body);
    case 'video':
      return videoNotices(request.body);
    case 'upscale':
      return [];
  }
}

/**
 * What the client actually sends: only fields the chosen model accepts, only its option group, no
 * backend-only fields, and the service's forced values applied (draftMode→480p, imageb sequentialMode
 * auto for several images, videob-1.5-pro without reference_image). Wrongly typed values are kept so that
 * validate() still reports them; run validate() first. Never throws.
 */
export function normalize(request: GenerationRequest): GenerationRequest {
  if (requestProblem(request)) return request;
  switch (request.kind) {
    case 'image':
      return { kind: 'image', body: normalizeImageBody(request.body) };
    case 'video':
      return { kind: 'video', body: normalizeVideoBody(request.body) };
    case 'upscale':
      return { kind: 'upscale', body: isRecord(request.body) ? pick(request.body, ['imageID']) : request.body };
  }
}
export { isReadyStatus, isTrainedModelId, notReadyProblem, unknownModelProblem } from './model-readiness.ts';

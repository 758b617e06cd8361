// Video generation bodies: validation, non-blocking notices and normalization, driven by the tables in video-models.ts.
import type { ReferenceImageRole } from '../service.ts';
import type { FieldProblem } from './common.ts';
import {
  describe,
  has,
  optionGroupOf,
  isHttpUrl,
  isNonEmptyString,
  isRecord,
  pick,
  problem,
  settingsProblems,
  unknownKeyProblems,
} from './common.ts';
import { isPublicImageModel } from './image-models.ts';
import type { VideoModelRules } from './video-models.ts';
import {
  BACKEND_ONLY_FIELDS,
  DRAFT_MODE_RESOLUTION,
  REFERENCE_IMAGE_ROLES,
  REFERENCE_VIDEO_ROLE,
  VIDEO_KEYS,
  VIDEO_MODEL_IDS,
  VIDEO_NUM_VIDEOS,
  VIDEO_OPTION_GROUPS,
  VIDEOA_REFERENCE_IMAGE_DURATION,
  videoModelsWithSetting,
  videoRules,
} from './video-models.ts';

const REFERENCE_KEYS = ['url', 'role'];
const NUM_VIDEOS = { kind: 'int', min: VIDEO_NUM_VIDEOS.min, max: VIDEO_NUM_VIDEOS.max } as const;

export function validateVideoBody(body: unknown): FieldProblem[] {
  if (!isRecord(body)) {
    return [problem('', `the video generation body must be a JSON object; you gave ${describe(body)}`)];
  }
  const modelID = body['modelID'];
  const rules = videoRules(modelID);
  if (!rules) {
    const hint = isPublicImageModel(modelID) ? ` (${String(modelID)} is an image model)` : '';
    return [
      problem('modelID', `modelID must be one of ${VIDEO_MODEL_IDS.join(', ')}; you gave ${describe(modelID)}${hint}`),
    ];
  }
  const id = modelID as string;
  const problems = unknownKeyProblems(body, VIDEO_KEYS, '', id);
  if (!has(body, 'prompt')) {
    problems.push(problem('prompt', `prompt is required for ${id}`, { detail: { kind: 'required' }, model: id }));
  } else if (!isNonEmptyString(body['prompt'])) {
    problems.push(problem('prompt', `prompt must be a non-empty string; you gave ${describe(body['prompt'])}`));
  }
  problems.push(...settingsProblems(body, { numVideos: NUM_VIDEOS }, '', id));
  problems.push(...referenceImageProblems(body, id, rules));
  problems.push(...referenceVideoProblems(body, id, rules));
  problems.push(...elementProblems(body, id, rules));
  problems.push(...totalItemProblems(body, id, rules));
  problems.push(...optionProblems(body, id, rules));
  return problems;
}

/** Shared item checks of referenceImages and referenceVideos: shape, url, backend-only and unknown keys. */
function referenceItemProblems(item: unknown, path: string, backendOnly: readonly string[]): FieldProblem[] {
  if (!isRecord(item)) return [problem(path, `${path} must be an object { url, role }; you gave ${describe(item)}`)];
  const problems: FieldProblem[] = [];
  for (const key of Object.keys(item)) {
    if (REFERENCE_KEYS.includes(key) || item[key] === undefined) continue;
    problems.push(
      backendOnly.includes(key)
        ? problem(
            `${path}.${key}`,
            `${path}.${key} is backend-only preparation metadata computed by the service; do not send it`,
          )
        : problem(`${path}.${key}`, `${path}.${key} is not accepted; a reference takes only url and role`),
    );
  }
  if (!isHttpUrl(item['url'])) {
    problems.push(
      problem(`${path}.url`, `${path}.url must be a public http(s) URL; you gave ${describe(item['url'])}`, {
        detail: { kind: 'url', given: item['url'] },
      }),
    );
  }
  return problems;
}

function referenceImageProblems(body: Record<string, unknown>, id: string, rules: VideoModelRules): FieldProblem[] {
  if (!has(body, 'referenceImages')) return [];
  const items = body['referenceImages'];
  if (!Array.isArray(items)) {
    return [
      problem('referenceImages', `referenceImages must be an array of { url, role }; you gave ${describe(items)}`),
    ];
  }
  const { imageRoles, droppedImageRoles } = rules.references;
  const accepted = [...REFERENCE_IMAGE_ROLES.filter((r) => imageRoles[r] !== undefined), ...droppedImageRoles];
  const problems: FieldProblem[] = [];
  const counts = new Map<ReferenceImageRole, number>();
  items.forEach((item, i) => {
    const path = `referenceImages[${i}]`;
    problems.push(...referenceItemProblems(item, path, BACKEND_ONLY_FIELDS.referenceImages));
    if (!isRecord(item)) return;
    const role = item['role'];
    if (!REFERENCE_IMAGE_ROLES.includes(role as ReferenceImageRole)) {
      problems.push(
        problem(
          `${path}.role`,
          `${path}.role must be one of ${REFERENCE_IMAGE_ROLES.join(', ')}; you gave ${describe(role)}`,
        ),
      );
    } else if (!accepted.includes(role as ReferenceImageRole)) {
      const list = accepted.length > 0 ? `it accepts ${accepted.join(', ')}` : 'it accepts no reference images';
      problems.push(problem(`${path}.role`, `${id} does not accept ${String(role)} inputs; ${list}`));
    } else {
      counts.set(role as ReferenceImageRole, (counts.get(role as ReferenceImageRole) ?? 0) + 1);
    }
  });
  for (const [role, count] of counts) {
    const max = imageRoles[role];
    if (max !== undefined && count > max) {
      problems.push(
        problem(
          'referenceImages',
          `${id} accepts at most ${max} ${role} input${max === 1 ? '' : 's'}; you gave ${count}`,
        ),
      );
    }
  }
  return problems;
}

function referenceVideoProblems(body: Record<string, unknown>, id: string, rules: VideoModelRules): FieldProblem[] {
  if (!has(body, 'referenceVideos')) return [];
  const items = body['referenceVideos'];
  const max = rules.references.maxReferenceVideos;
  if (max === 0) {
    return [
      problem(
        'referenceVideos',
        `referenceVideos are not accepted by ${id}; only videob-2.0 and the videoc models take reference videos`,
      ),
    ];
  }
  if (!Array.isArray(items)) {
    return [
      problem('referenceVideos', `referenceVideos must be an array of { url, role }; you gave ${describe(items)}`),
    ];
  }
  const problems: FieldProblem[] = [];
  if (items.length > max) {
    problems.push(
      problem('referenceVideos', `${id} accepts at most ${max} reference videos; you gave ${items.length}`, {
        detail: { kind: 'tooMany', max, given: items.length },
        model: id,
      }),
    );
  }
  items.forEach((item, i) => {
    const path = `referenceVideos[${i}]`;
    problems.push(...referenceItemProblems(item, path, BACKEND_ONLY_FIELDS.referenceVideos));
    if (isRecord(item) && item['role'] !== REFERENCE_VIDEO_ROLE) {
      problems.push(
        problem(`${path}.role`, `${path}.role must be ${REFERENCE_VIDEO_ROLE}; you gave ${describe(item['role'])}`),
      );
    }
  });
  return problems;
}

function elementProblems(body: Record<string, unknown>, id: string, rules: VideoModelRules): FieldProblem[] {
  if (!has(body, 'elementIDs')) return [];
  if (!rules.references.acceptsElementIDs) {
    return [problem('elementIDs', `elementIDs are not accepted by ${id}; only the videoc models take elements`)];
  }
  const ids = body['elementIDs'];
  if (!Array.isArray(ids))
    return [problem('elementIDs', `elementIDs must be an array of strings; you gave ${describe(ids)}`)];
  const problems: FieldProblem[] = [];
  ids.forEach((el, i) => {
    if (!isNonEmptyString(el)) {
      problems.push(
        problem(`elementIDs[${i}]`, `elementIDs[${i}] must be a non-empty string; you gave ${describe(el)}`),
      );
    }
  });
  return problems;
}

function totalItemProblems(body: Record<string, unknown>, id: string, rules: VideoModelRules): FieldProblem[] {
  const max = rules.references.maxTotalItems;
  if (max === undefined) return [];
  const count = (key: string): number => (Array.isArray(body[key]) ? (body[key] as unknown[]).length : 0);
  const total = count('elementIDs') + count('referenceImages') + count('referenceVideos');
  // Named on a field that was sent: elements first, then reference videos, then images.
  const field = ['elementIDs', 'referenceVideos', 'referenceImages'].find((key) => count(key) > 0) ?? 'elementIDs';
  return total > max
    ? [problem(field, `${id} accepts at most ${max} elements and references in total; you gave ${total}`)]
    : [];
}

function optionProblems(body: Record<string, unknown>, id: string, rules: VideoModelRules): FieldProblem[] {
  const own = rules.optionGroup;
  const { problems, group } = optionGroupOf(body, id, own, VIDEO_OPTION_GROUPS);
  if (!group) return problems;
  const where = `options.${own}`;

  const accepted = Object.keys(rules.options);
  for (const key of Object.keys(group)) {
    if (accepted.includes(key) || group[key] === undefined) continue;
    const path = `${where}.${key}`;
    const refusal = rules.refusedOptions?.[key];
    const owners = videoModelsWithSetting(key);
    const message = refusal
      ? `${path} is not accepted by ${id}: ${refusal}`
      : owners.length > 0
        ? `${path} is not a setting of ${id}; it is supported only by ${owners.join(', ')}`
        : `${path} is not a setting of ${id}; accepted: ${accepted.join(', ')}`;
    problems.push(problem(path, message));
  }
  problems.push(...settingsProblems(group, rules.options, where, id));
  if (rules.family === 'videoa') problems.push(...videoaDurationProblems(body, group, id));
  return problems;
}

function hasRole(body: Record<string, unknown>, role: ReferenceImageRole): boolean {
  const items = body['referenceImages'];
  return Array.isArray(items) && items.some((item) => isRecord(item) && item['role'] === role);
}

function videoaDurationProblems(
  body: Record<string, unknown>,
  group: Record<string, unknown>,
  id: string,
): FieldProblem[] {
  const duration = group['duration'];
  if (!has(group, 'duration') || duration === VIDEOA_REFERENCE_IMAGE_DURATION || !hasRole(body, 'reference_image'))
    return [];
  return [
    problem(
      'options.videoa.duration',
      `duration must be ${VIDEOA_REFERENCE_IMAGE_DURATION} when a reference_image is used with ${id}; you gave ${describe(duration)}`,
      {
        detail: {
          kind: 'mustBe',
          required: VIDEOA_REFERENCE_IMAGE_DURATION,
          when: 'when a reference image is used',
          given: duration,
        },
        model: id,
      },
    ),
  ];
}

function ownGroup(body: Record<string, unknown>, rules: VideoModelRules): Record<string, unknown> | undefined {
  const options = body['options'];
  const group = isRecord(options) && has(options, rules.optionGroup) ? options[rules.optionGroup] : undefined;
  return isRecord(group) ? group : undefined;
}

const nonEmptyArray = (value: unknown): boolean => Array.isArray(value) && value.length > 0;

export function videoNotices(body: unknown): FieldProblem[] {
  if (!isRecord(body)) return [];
  const rules = videoRules(body['modelID']);
  if (!rules) return [];
  const id = String(body['modelID']);
  const group = ownGroup(body, rules) ?? {};
  const notices: FieldProblem[] = [];
  const images = body['referenceImages'];
  if (Array.isArray(images)) {
    images.forEach((item, i) => {
      const role = isRecord(item) ? item['role'] : undefined;
      if (rules.references.droppedImageRoles.includes(role as ReferenceImageRole)) {
        notices.push(
          problem(`referenceImages[${i}]`, `${id} drops ${String(role)} inputs; this image will not be used`),
        );
      }
    });
  }
  if (rules.options['draftMode'] && group['draftMode'] === true && group['resolution'] !== DRAFT_MODE_RESOLUTION) {
    const was = has(group, 'resolution') ? `; resolution ${describe(group['resolution'])} will be replaced` : '';
    notices.push(
      problem(`options.${rules.optionGroup}.resolution`, `draftMode forces ${DRAFT_MODE_RESOLUTION} on ${id}${was}`),
    );
  }
  const notTextOnly = ['referenceImages', 'referenceVideos', 'elementIDs'].some((k) => nonEmptyArray(body[k]));
  if (rules.family === 'videoc-video' && has(group, 'aspectRatio') && notTextOnly) {
    notices.push(
      problem(
        'options.videoc.aspectRatio',
        `aspectRatio applies only to text-to-video on ${id}; it is ignored with reference images, videos or elements`,
      ),
    );
  }
  return notices;
}

const cleanReferences = (items: unknown, keep: (item: Record<string, unknown>) => boolean): unknown[] =>
  Array.isArray(items)
    ? items
        .filter(isRecord)
        .filter(keep)
        .map((item) => pick(item, REFERENCE_KEYS))
    : [];

export function normalizeVideoBody(body: unknown): unknown {
  if (!isRecord(body)) return body;
  const rules = videoRules(body['modelID']);
  const out = pick(body, ['modelID', 'prompt', 'numVideos']);
  const refs = rules?.references;
  const acceptedRoles: readonly string[] = refs
    ? REFERENCE_IMAGE_ROLES.filter((r) => refs.imageRoles[r] !== undefined)
    : REFERENCE_IMAGE_ROLES;
  const images = cleanReferences(body['referenceImages'], (item) => acceptedRoles.includes(item['role'] as string));
  if (images.length > 0) out['referenceImages'] = images;
  if (!refs || refs.maxReferenceVideos > 0) {
    const videos = cleanReferences(body['referenceVideos'], () => true);
    if (videos.length > 0) out['referenceVideos'] = videos;
  }
  if ((!refs || refs.acceptsElementIDs) && nonEmptyArray(body['elementIDs']))
    out['elementIDs'] = [...(body['elementIDs'] as unknown[])];
  if (!rules) return out;

  const settings = pick(ownGroup(body, rules) ?? {}, Object.keys(rules.options));
  if (rules.options['draftMode'] && settings['draftMode'] === true) settings['resolution'] = DRAFT_MODE_RESOLUTION;
  if (Object.keys(settings).length > 0) out['options'] = { [rules.optionGroup]: settings };
  return out;
}

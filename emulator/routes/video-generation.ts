// POST /videos/generation: shared rules, element ownership, then a job whose videos alternate MP4 and HLS.
import type { FastifyInstance } from 'fastify';
import { defaultsFor, VIDEO_MODELS } from '../../src-main/contract/rules/index.ts';
import type { EmulatorContext } from '../context.ts';
import { invalidField, okEnvelope } from '../envelope.ts';
import { createJob, promptFailure } from '../job-factory.ts';
import { videoCredits } from '../output-size.ts';
import type { VideoRecord } from '../records.ts';
import { userOf } from '../request-state.ts';
import { acceptedBody } from '../validation.ts';
import { ownedExistingImage } from './images.ts';
import { ownedExistingVideo } from './videos.ts';

type Body = Record<string, unknown>;

/** Values of a video's `type` (and of the GET /videos `videoType` filter); the spec does not list them. */
export const VIDEO_TYPES = ['text-to-video', 'image-to-video', 'video-to-video', 'motion-control'] as const;

const PORTRAIT_RATIOS = new Set(['9:16', '3:4', '2:3']);

const nonEmpty = (value: unknown): boolean => Array.isArray(value) && value.length > 0;

/** The settings the job runs with: the model's defaults, the given group, minus what the model ignores. */
function effectiveOptions(modelID: string, body: Body): Body {
  const rules = (VIDEO_MODELS as Record<string, { optionGroup: string; family: string }>)[modelID];
  const group = rules?.optionGroup ?? '';
  const defaults = (defaultsFor(modelID).options as Record<string, Body> | undefined)?.[group] ?? {};
  const given = ((body.options as Record<string, Body> | undefined) ?? {})[group] ?? {};
  const options = { ...defaults, ...given };
  // Spec: videoc aspectRatio is "text-to-video only, ignored for image-to-video or elements".
  const textOnly = !['referenceImages', 'referenceVideos', 'elementIDs'].some((key) => nonEmpty(body[key]));
  if (rules?.family === 'videoc-video' && !textOnly) delete options.aspectRatio;
  return options;
}

function videoType(modelID: string, body: Body): (typeof VIDEO_TYPES)[number] {
  if ((VIDEO_MODELS as Record<string, { family: string }>)[modelID]?.family === 'videoc-motion')
    return 'motion-control';
  if (nonEmpty(body.referenceVideos)) return 'video-to-video';
  if (nonEmpty(body.referenceImages)) return 'image-to-video';
  return 'text-to-video';
}

export function registerVideoGenerationRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  app.post('/videos/generation', async (request) => {
    const owner = userOf(request);
    const body = acceptedBody('video', request.body);
    const now = ctx.clock.now();
    const modelID = body.modelID as string;
    const elementIDs = Array.isArray(body.elementIDs) ? (body.elementIDs as string[]) : [];
    elementIDs.forEach((id, i) => {
      if (!ownedExistingImage(ctx, owner, id, now) && !ownedExistingVideo(ctx, owner, id, now)) {
        throw invalidField(`elementIDs[${i}]`, `${id} is not one of your images or videos`);
      }
    });
    const options = effectiveOptions(modelID, body);
    const ratio = options.aspectRatio ?? options.ratio;
    const orientation = typeof ratio === 'string' && PORTRAIT_RATIOS.has(ratio) ? 'portrait' : 'landscape';
    // duration -1 means "auto" on videob-1.5-pro; motion models follow their reference, counted as 5 s.
    const seconds = typeof options.duration === 'number' && options.duration > 0 ? options.duration : 5;
    const numVideos = typeof body.numVideos === 'number' ? body.numVideos : 1;
    const job = createJob(
      ctx,
      {
        ownerId: owner,
        kind: 'video',
        modelID,
        credits: videoCredits(modelID, numVideos, seconds, options.resolution),
        failure: promptFailure(body.prompt),
      },
      now,
    );
    // Every second video job answers with an HLS playlist (spec: "a url may be a streaming playlist").
    const delivery = ctx.store.nextVideoJobIndex() % 2 === 0 ? 'hls' : 'mp4';
    if (job.outcome === 'success') {
      for (let i = 0; i < numVideos; i += 1) {
        const video: VideoRecord = {
          id: ctx.store.newId('vid'),
          ownerId: owner,
          jobId: job.id,
          modelID,
          type: videoType(modelID, body),
          createdAt: job.finishAt,
          delivery,
          orientation,
          data: { jobId: job.id, prompt: body.prompt, durationSeconds: seconds, orientation, options, request: body },
        };
        ctx.store.videos.set(video.id, video);
        job.outputIds.push(video.id);
      }
    }
    ctx.store.changed();
    return okEnvelope({ jobId: job.id, status: 'queued' });
  });
}

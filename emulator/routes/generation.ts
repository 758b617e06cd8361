// POST /images/generation and /images/upscaling: validate, check server state, create the job and its future outputs.
import type { FastifyInstance } from 'fastify';
import { isPublicImageModel } from '../../src-main/contract/rules/index.ts';
import type { EmulatorContext } from '../context.ts';
import { invalidField, okEnvelope } from '../envelope.ts';
import { createJob, promptFailure } from '../job-factory.ts';
import { modelStatusAt } from '../lifecycle.ts';
import { outputImage } from '../output-image.ts';
import { imageCredits, planImageOutput, UPSCALE_CREDITS } from '../output-size.ts';
import { isPresetTag } from '../presets.ts';
import type { ImageRecord } from '../records.ts';
import { userOf } from '../request-state.ts';
import { acceptedBody } from '../validation.ts';
import { ownedExistingImage } from './images.ts';

/** Longest edge an upscale may reach; beyond it the factor shrinks below 2. */
const MAX_UPSCALED_EDGE = 8192;

function checkTrainedModel(ctx: EmulatorContext, owner: string, body: Record<string, unknown>, now: number): void {
  const modelID = body.modelID as string;
  const model = ctx.store.getModel(owner, modelID);
  if (!model) throw invalidField('modelID', `${modelID} is neither a public model nor one of your models`);
  const training = model.trainingJobId ? ctx.store.jobs.get(model.trainingJobId) : undefined;
  const status = modelStatusAt(model, training, now);
  if (status !== 'ready')
    throw invalidField('modelID', `model ${modelID} is ${status}; only a ready model can generate`);
  if (typeof body.inputImageId === 'string') {
    const input = ownedExistingImage(ctx, owner, body.inputImageId, now);
    if (!input) throw invalidField('inputImageId', `image ${body.inputImageId} is not one of your images`);
    if (input.type !== 'auxiliaryType')
      throw invalidField(
        'inputImageId',
        `image ${input.id} is a ${input.type} image; use an uploaded auxiliaryType image`,
      );
  }
}

export function registerGenerationRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  app.post('/images/generation', async (request) => {
    const owner = userOf(request);
    const body = acceptedBody('image', request.body);
    const now = ctx.clock.now();
    const modelID = body.modelID as string;
    if (typeof body.preset === 'string' && body.preset !== '' && !isPresetTag(body.preset)) {
      throw invalidField('preset', `${body.preset} is not a tag from GET /presets`);
    }
    if (!isPublicImageModel(modelID)) checkTrainedModel(ctx, owner, body, now);
    const plan = planImageOutput(modelID, body);
    const numImages = typeof body.numImages === 'number' ? body.numImages : 1;
    // Without a seed each job gets its own, so two identical prompts still give distinct images.
    const seed = typeof body.seed === 'number' ? body.seed : ctx.store.rng.int(0, 2 ** 31);
    const prompt =
      typeof body.prompt === 'string'
        ? body.prompt
        : typeof body.preset === 'string'
          ? `Preset ${body.preset}`
          : 'Reference image variation';
    const job = createJob(
      ctx,
      {
        ownerId: owner,
        kind: 'image',
        modelID,
        credits: imageCredits(modelID, numImages, plan.tier),
        failure: promptFailure(body.prompt),
      },
      now,
    );
    if (job.outcome === 'success') {
      for (let i = 0; i < numImages; i += 1) {
        const image = outputImage({
          id: ctx.store.newId('img'),
          ownerId: owner,
          modelID,
          job,
          plan,
          renderPrompt: prompt,
          seed: seed + i,
          request: body,
        });
        ctx.store.images.set(image.id, image);
        job.outputIds.push(image.id);
      }
    }
    ctx.store.changed();
    return okEnvelope({ jobId: job.id, status: 'queued' });
  });

  app.post('/images/upscaling', async (request) => {
    const owner = userOf(request);
    const body = acceptedBody('upscale', request.body);
    const now = ctx.clock.now();
    const imageID = body.imageID as string;
    const source = ownedExistingImage(ctx, owner, imageID, now);
    if (!source) throw invalidField('imageID', `image ${imageID} is not one of your images`);
    const known: Record<string, unknown> = source.source.kind === 'upload' ? source.data : source.source;
    // An upload whose size could not be read (e.g. HEIC) is treated as 1024 px square.
    const width = typeof known.width === 'number' ? known.width : 1024;
    const height = typeof known.height === 'number' ? known.height : 1024;
    const factor = Math.min(2, MAX_UPSCALED_EDGE / Math.max(width, height));
    const target = { width: Math.round(width * factor), height: Math.round(height * factor) };
    const job = createJob(
      ctx,
      { ownerId: owner, kind: 'upscale', modelID: source.modelID, credits: UPSCALE_CREDITS },
      now,
    );
    if (job.outcome === 'success') {
      const format = source.source.format === 'png' ? 'png' : 'jpeg';
      const upscaled: ImageRecord = {
        id: ctx.store.newId('img'),
        ownerId: owner,
        modelID: source.modelID,
        type: 'output',
        createdAt: job.finishAt,
        updatedAt: job.finishAt,
        jobId: job.id,
        source: { kind: 'upscale', fromImageId: source.id, format, ...target },
        data: { jobId: job.id, upscaledFrom: source.id, scale: Number(factor.toFixed(3)), ...target, format },
      };
      ctx.store.images.set(upscaled.id, upscaled);
      job.outputIds.push(upscaled.id);
      // Linked from the source only once this output exists (views.ts); until then the last finished one shows.
      source.upscaledImageIds = [...(source.upscaledImageIds ?? []), upscaled.id];
    }
    ctx.store.changed();
    return okEnvelope({ jobId: job.id, status: 'queued' });
  });
}

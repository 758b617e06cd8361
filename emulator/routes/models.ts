// Models: list (adding the free and general models), create/update, read, delete, list images, train.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { IMAGE_LIST_FILTERS, UPLOAD_TYPES } from '../../src-main/contract/service.ts';
import { UPLOAD_RULES } from '../../src-main/contract/rules/index.ts';
import type { EmulatorContext } from '../context.ts';
import { badRequest, invalidField, notFound, okEnvelope, okPage, ServiceError } from '../envelope.ts';
import { createJob } from '../job-factory.ts';
import { isJobFinished, modelStatusAt } from '../lifecycle.ts';
import { cursorPage, newestFirst, queryParam } from '../pagination.ts';
import type { ImageRecord, ImageType, ModelRecord } from '../records.ts';
import { userOf } from '../request-state.ts';
import { imageExists, imageView, modelView } from '../views.ts';

/** Model types the emulator accepts (the spec does not list them); `person` is the default. */
export const MODEL_TYPES = ['person', 'style', 'object', 'pet'] as const;
export const DEFAULT_MODEL_TYPE = 'person';

/** Added by GET /models when missing: always ready, usable with the trained-model request body. */
export const BUILT_IN_MODELS = [
  { id: 'free-general', modelType: 'free' },
  { id: 'general-portrait', modelType: 'general' },
] as const;

const TRAINING_CREDITS = 25;

const IMAGE_FILTER_TYPES: Record<string, readonly ImageType[]> = {
  all: ['modelInput', 'auxiliaryType', 'output'],
  input: ['modelInput'],
  output: ['output'],
  auxiliaryType: ['auxiliaryType'],
};

const modelIdParam = (request: FastifyRequest): string => (request.params as { modelID: string }).modelID;

export function ownedModel(ctx: EmulatorContext, ownerId: string, id: string): ModelRecord {
  const model = ctx.store.getModel(ownerId, id);
  if (!model) throw notFound('Model', id);
  return model;
}

/** Images of a model that exist now (outputs appear when their job finishes). */
export function imagesOfModel(ctx: EmulatorContext, ownerId: string, modelID: string, now: number): ImageRecord[] {
  return [...ctx.store.images.values()].filter(
    (i) => i.ownerId === ownerId && i.modelID === modelID && imageExists(i, now),
  );
}

export async function deleteImageRecord(ctx: EmulatorContext, image: ImageRecord): Promise<void> {
  ctx.store.images.delete(image.id);
  if (image.source.kind === 'upload') await ctx.uploads.delete(image.id);
  for (const other of ctx.store.images.values()) {
    if (other.upscaledImageIds?.includes(image.id)) {
      other.upscaledImageIds = other.upscaledImageIds.filter((id) => id !== image.id);
    }
  }
}

function ensureBuiltIns(ctx: EmulatorContext, ownerId: string, now: number): void {
  let added = false;
  for (const builtIn of BUILT_IN_MODELS) {
    if (ctx.store.getModel(ownerId, builtIn.id)) continue;
    ctx.store.putModel({
      id: builtIn.id,
      ownerId,
      modelType: builtIn.modelType,
      builtIn: true,
      createdAt: now,
      updatedAt: now,
    });
    added = true;
  }
  if (added) ctx.store.changed();
}

function parseModelBody(body: unknown): { id?: string; modelType?: string } {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body))
    throw badRequest('The body must be a JSON object such as {"modelType": "person"}');
  const { id, modelType } = body as Record<string, unknown>;
  if (id !== undefined && (typeof id !== 'string' || id.trim() === ''))
    throw invalidField('id', 'must be the id of one of your models');
  if (modelType !== undefined && !(MODEL_TYPES as readonly unknown[]).includes(modelType)) {
    throw invalidField('modelType', `must be one of ${MODEL_TYPES.join(', ')}`);
  }
  return {
    ...(id === undefined ? {} : { id: id as string }),
    ...(modelType === undefined ? {} : { modelType: modelType as string }),
  };
}

export function registerModelRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  app.get('/models', async (request) => {
    const owner = userOf(request);
    const now = ctx.clock.now();
    ensureBuiltIns(ctx, owner, now);
    const models = ctx.store
      .modelsOf(owner)
      .sort((a, b) => Number(b.builtIn) - Number(a.builtIn) || a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1));
    return okEnvelope(models.map((m) => modelView(ctx, m, now)));
  });

  app.post('/models', async (request) => {
    const owner = userOf(request);
    const now = ctx.clock.now();
    const body = parseModelBody(request.body);
    if (body.id !== undefined) {
      const model = ownedModel(ctx, owner, body.id);
      if (body.modelType !== undefined && body.modelType !== model.modelType) {
        if (model.builtIn) throw invalidField('modelType', 'the type of a built-in model cannot change');
        const training = model.trainingJobId ? ctx.store.jobs.get(model.trainingJobId) : undefined;
        if (modelStatusAt(model, training, now) === 'training')
          throw invalidField('modelType', 'cannot change while the model is training');
        model.modelType = body.modelType;
      }
      model.updatedAt = now;
      ctx.store.changed();
      return okEnvelope(modelView(ctx, model, now));
    }
    const model: ModelRecord = {
      id: ctx.store.newId('mdl'),
      ownerId: owner,
      modelType: body.modelType ?? DEFAULT_MODEL_TYPE,
      builtIn: false,
      createdAt: now,
      updatedAt: now,
    };
    ctx.store.putModel(model);
    ctx.store.changed();
    return okEnvelope(modelView(ctx, model, now));
  });

  app.get('/models/:modelID', async (request) => {
    const owner = userOf(request);
    return okEnvelope(modelView(ctx, ownedModel(ctx, owner, modelIdParam(request)), ctx.clock.now()));
  });

  app.delete('/models/:modelID', async (request) => {
    const owner = userOf(request);
    const model = ownedModel(ctx, owner, modelIdParam(request));
    ctx.store.deleteModel(model);
    for (const image of [...ctx.store.images.values()]) {
      if (image.ownerId === owner && image.modelID === model.id) await deleteImageRecord(ctx, image);
    }
    ctx.store.changed();
    return okEnvelope(`Model ${model.id} and its images were deleted`);
  });

  app.get('/models/:modelID/images', async (request) => {
    const owner = userOf(request);
    const modelID = modelIdParam(request);
    // Only the caller's own models: a public family id is not theirs and answers 404, as the service does.
    ownedModel(ctx, owner, modelID);
    const filter = queryParam(request.query, 'imageType') ?? 'all';
    const types = (IMAGE_LIST_FILTERS as readonly string[]).includes(filter) ? IMAGE_FILTER_TYPES[filter] : undefined;
    if (!types) throw invalidField('imageType', `must be one of ${IMAGE_LIST_FILTERS.join(', ')}`);
    const now = ctx.clock.now();
    const images = imagesOfModel(ctx, owner, modelID, now)
      .filter((i) => types.includes(i.type))
      .sort(newestFirst);
    const { items, page } = cursorPage(images, request.query, `images|${modelID}|${filter}`);
    return okPage(
      items.map((i) => imageView(ctx, i, now)),
      page,
    );
  });

  app.get('/models/:modelID/train', async (request) => {
    const owner = userOf(request);
    const model = ownedModel(ctx, owner, modelIdParam(request));
    const now = ctx.clock.now();
    if (model.builtIn) throw invalidField('modelID', `${model.id} is a built-in model and cannot be trained`);
    const current = model.trainingJobId ? ctx.store.jobs.get(model.trainingJobId) : undefined;
    if (modelStatusAt(model, current, now) === 'training')
      throw invalidField('modelID', `${model.id} is already training`);
    const inputs = imagesOfModel(ctx, owner, model.id, now).filter((i) => i.type === UPLOAD_TYPES[0]).length;
    if (inputs < UPLOAD_RULES.trainingMin || inputs > UPLOAD_RULES.trainingMax) {
      throw invalidField(
        'images',
        `training needs ${UPLOAD_RULES.trainingMin} to ${UPLOAD_RULES.trainingMax} modelInput images; model ${model.id} has ${inputs}`,
      );
    }
    const running = [...ctx.store.jobs.values()].filter(
      (j) => j.ownerId === owner && j.kind === 'training' && !isJobFinished(j, now),
    );
    if (running.length >= ctx.maxConcurrentTrainings) {
      const soonest = Math.min(...running.map((j) => j.finishAt)) - now;
      throw new ServiceError(
        429,
        'too_many_trainings',
        `Too many trainings are running (${running.length} of at most ${ctx.maxConcurrentTrainings}); try again when one finishes`,
        { 'retry-after': String(ctx.clock.realSecondsFor(soonest)) },
      );
    }
    const job = createJob(ctx, { ownerId: owner, kind: 'training', modelID: model.id, credits: TRAINING_CREDITS }, now);
    model.trainingJobId = job.id;
    model.updatedAt = now;
    ctx.store.changed();
    return okEnvelope(`Training started for model ${model.id}`);
  });
}

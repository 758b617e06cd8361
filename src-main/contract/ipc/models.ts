// Channels about the account's models: list, one model, the user's own label (the service has no
// name field) and a model's images page by page, read from the local cache; create and delete on
// the service, with the cache updated at once.
import * as v from 'valibot';
import { IMAGE_LIST_FILTERS } from '../service.ts';
import type { AssetPageInfo } from './assets.ts';
import { ASSET_PAGE_LIMIT, pageCursorSchema, pageLimitSchema, serviceIdSchema } from './assets.ts';
import { invoke, type } from './channel.ts';

export interface ModelTrainingInfo {
  /** Set by the training watcher: e.g. 'training', 'slow' (longer than usual), 'ready', 'failed'. */
  state: string | null;
  startedAt: string | null;
  lastCheckedAt: string | null;
}

export interface ModelInfo {
  id: string;
  /** The user's own name for it, or null. */
  label: string | null;
  /** What to show (contract/names.ts `modelName`): the label, else a name in words, never an `mdl_` id. */
  displayName: string;
  modelType: string;
  /** The service's status as sent (new, training, ready, deleted, …). */
  status: string;
  /** Only a ready model can generate. */
  usable: boolean;
  createdAt: string | null;
  updatedAt: string | null;
  training: ModelTrainingInfo;
  /** Uploaded images in the cache: training inputs (12–20 needed) and reference images. */
  uploads: { trainingImages: number; referenceImages: number };
}

export interface ModelsChangedInfo {
  reason: 'sync' | 'rename' | 'training' | 'create' | 'delete';
  /** The models concerned; empty when the whole list should be reloaded. */
  ids: string[];
}

export interface ModelDeletedInfo {
  id: string;
  /** The service's confirmation text. */
  message: string;
  /** Cached images of the model removed with it (downloaded copies stay in the library, marked as gone). */
  imagesRemoved: number;
}

export const MODEL_LABEL_MAX_LENGTH = 80;
export const MODEL_TYPE_MAX_LENGTH = 64;

const labelSchema = v.nullable(
  v.pipe(
    v.string('The name must be text.'),
    v.trim(),
    v.maxLength(MODEL_LABEL_MAX_LENGTH, `A name is at most ${MODEL_LABEL_MAX_LENGTH} characters.`),
  ),
);

export const modelsInvoke = {
  'models:list': invoke(v.undefined(), type<ModelInfo[]>()),
  'models:get': invoke(v.strictObject({ id: serviceIdSchema }), type<ModelInfo>()),
  /** Sets the local label; null or blank removes it. Never sent to the service. */
  'models:rename': invoke(
    v.strictObject({
      id: serviceIdSchema,
      label: labelSchema,
    }),
    type<ModelInfo>(),
  ),
  /**
   * POST /models: a new model to train. modelType is passed on as given (the spec lists no values;
   * absent = the service's default); the label stays local.
   */
  'models:create': invoke(
    v.strictObject({
      modelType: v.optional(
        v.pipe(
          v.string('The model type must be text.'),
          v.trim(),
          v.maxLength(MODEL_TYPE_MAX_LENGTH, `A model type is at most ${MODEL_TYPE_MAX_LENGTH} characters.`),
        ),
      ),
      label: v.optional(labelSchema),
    }),
    type<ModelInfo>(),
  ),
  /** DELETE /models/{id}: the model and all its images on the service. Its uploads here are cancelled. */
  'models:delete': invoke(v.strictObject({ id: serviceIdSchema }), type<ModelDeletedInfo>()),
  /** A model's images from the cache, newest first; imageType as the service's list filter. */
  'models:images': invoke(
    v.strictObject({
      modelId: serviceIdSchema,
      imageType: v.optional(
        v.picklist(IMAGE_LIST_FILTERS, `imageType must be one of ${IMAGE_LIST_FILTERS.join(', ')}.`),
        'all',
      ),
      cursor: v.optional(v.nullable(pageCursorSchema)),
      limit: pageLimitSchema(ASSET_PAGE_LIMIT.max, 100),
    }),
    type<AssetPageInfo>(),
  ),
};

export const modelsEvents = {
  'models:changed': type<ModelsChangedInfo>(),
};

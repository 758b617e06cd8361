// Handlers of the models:* channels: the account's models and their images from the cache;
// creating and deleting a model on the service, with the cache brought up to date at once.
import { AppError } from '../../contract/errors.ts';
import type { AssetPageInfo } from '../../contract/ipc/assets.ts';
import type { ModelDeletedInfo, ModelInfo } from '../../contract/ipc/models.ts';
import type { UploadInfo } from '../../contract/ipc/uploads.ts';
import type { ImageListFilter } from '../../contract/service.ts';
import type { ServiceClient } from '../api/service-client.ts';
import { modelFields } from '../api/server-records.ts';
import type { CoreAssetFilter } from '../db/repos/assets-query.ts';
import type { AccountDb } from '../db/account-db.ts';
import { assetToInfo, modelToInfo, type MediaUrlFor } from './to-info.ts';
import type { EventBus } from '../events.ts';

type AccountUploads = { list(modelId: string): UploadInfo[]; remove(id: number): Promise<void> };

export interface ModelsHandlerDeps {
  cache(): AccountDb;
  events: EventBus;
  mediaUrlFor: MediaUrlFor;
  /** The open account's API client (models:create, models:delete). */
  client(): Pick<ServiceClient, 'createModel' | 'deleteModel'>;
  /** The open account's upload queue: a deleted model's uploads are cancelled (or forgotten) first. */
  uploads?(): AccountUploads | Promise<AccountUploads>;
  now?: () => number;
}

/** The service's image list filter, answered from the cache. */
const IMAGE_TYPE_FILTERS: Record<ImageListFilter, CoreAssetFilter> = {
  all: {},
  input: { type: 'modelInput' },
  auxiliaryType: { type: 'auxiliaryType' },
  output: { origin: 'generated' },
};

const modelNotFound = (id: string) =>
  new AppError({
    code: 'not_found',
    field: 'id',
    message: `No model ${id} in this account. Refresh to see the latest models.`,
  });

function modelInfo(cache: AccountDb, id: string): ModelInfo {
  const row = cache.models.get(id);
  if (!row) throw modelNotFound(id);
  return modelToInfo(row, cache.models.uploadedCounts().get(id));
}

export function modelsHandlers(deps: ModelsHandlerDeps) {
  const now = deps.now ?? Date.now;

  /** Drops the model and its images from the cache; images with a local copy stay, marked as gone. */
  function forgetModel(cache: AccountDb, id: string): number {
    return cache.transaction(() => {
      let removed = 0;
      for (const key of cache.assets.syncKeys('image')) {
        if (key.model_id !== id) continue;
        if (cache.assets.removeFromServer(key) !== 'unchanged') removed += 1;
      }
      cache.models.delete(id);
      return removed;
    });
  }

  return {
    'models:list': (): ModelInfo[] => {
      const cache = deps.cache();
      const uploads = cache.models.uploadedCounts();
      return cache.models.list().map((row) => modelToInfo(row, uploads.get(row.id)));
    },
    'models:get': ({ id }: { id: string }): ModelInfo => modelInfo(deps.cache(), id),
    'models:rename': ({ id, label }: { id: string; label: string | null }): ModelInfo => {
      const cache = deps.cache();
      if (!cache.models.setLabel(id, label)) throw modelNotFound(id);
      deps.events.emit('models:changed', { reason: 'rename', ids: [id] });
      return modelInfo(cache, id);
    },
    'models:create': async (args: { modelType?: string | undefined; label?: string | null | undefined }) => {
      const modelType = args.modelType?.trim();
      const created = await deps.client().createModel(modelType ? { modelType } : {});
      const cache = deps.cache();
      cache.models.upsertFromServer(modelFields(created), now());
      if (args.label?.trim()) cache.models.setLabel(created.id, args.label);
      deps.events.emit('models:changed', { reason: 'create', ids: [created.id] });
      return modelInfo(cache, created.id);
    },
    'models:delete': async ({ id }: { id: string }): Promise<ModelDeletedInfo> => {
      const queue = await deps.uploads?.();
      // Cancelled first, so none lands on a model that is going away; finished ones are forgotten with it.
      for (const upload of queue?.list(id) ?? []) await queue?.remove(upload.id);
      let message: string;
      try {
        message = await deps.client().deleteModel(id);
      } catch (error) {
        // Already gone on the service: what is left to do is forgetting it here.
        if (!(error instanceof AppError) || error.info.code !== 'not_found' || !deps.cache().models.get(id))
          throw error;
        message = `Model ${id} was already deleted on the service.`;
      }
      const cache = deps.cache();
      const imagesRemoved = forgetModel(cache, id);
      deps.events.emit('models:changed', { reason: 'delete', ids: [id] });
      if (imagesRemoved > 0) deps.events.emit('assets:changed', { reason: 'delete', kinds: ['image'] });
      return { id, message, imagesRemoved };
    },
    'models:images': (args: {
      modelId: string;
      imageType: ImageListFilter;
      cursor?: string | null | undefined;
      limit: number;
    }): AssetPageInfo => {
      const page = deps.cache().assets.list({
        filter: { kind: 'image', modelId: args.modelId, ...IMAGE_TYPE_FILTERS[args.imageType] },
        sort: 'newest',
        cursor: args.cursor ?? null,
        limit: args.limit,
      });
      return { items: page.rows.map((row) => assetToInfo(row, deps.mediaUrlFor)), nextCursor: page.nextCursor };
    },
  };
}

// Handlers of the models:* channels: the account's models and their images, from the cache.
import { AppError } from '../../contract/errors.ts';
import type { AssetPageInfo } from '../../contract/ipc/assets.ts';
import type { ModelInfo } from '../../contract/ipc/models.ts';
import type { ImageListFilter } from '../../contract/service.ts';
import type { AssetFilter } from '../db/repos/assets-query.ts';
import type { Cache } from '../db/cache.ts';
import { assetToInfo, modelToInfo, type MediaUrlFor } from '../db/to-info.ts';
import type { EventBus } from '../events.ts';

export interface ModelsHandlerDeps {
  cache(): Cache;
  events: EventBus;
  mediaUrlFor: MediaUrlFor;
}

/** The service's image list filter, answered from the cache. */
const IMAGE_TYPE_FILTERS: Record<ImageListFilter, AssetFilter> = {
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

function modelInfo(cache: Cache, id: string): ModelInfo {
  const row = cache.models.get(id);
  if (!row) throw modelNotFound(id);
  return modelToInfo(row, cache.models.uploadedCounts().get(id));
}

export function modelsHandlers(deps: ModelsHandlerDeps) {
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

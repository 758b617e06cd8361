// Channels that organise the library locally: favourites (a star kept on this computer; the
// service's `liked` cannot be set through its API) and collections, hand-made or saved searches.
import * as v from 'valibot';
import { invoke, type } from './channel.ts';
import { assetFilterSchema, type AssetFilter } from './assets.ts';
import { ASSETS_PER_CALL, type LibraryExportInfo } from './library.ts';

export interface CollectionInfo {
  id: number;
  name: string;
  /** A smart collection is a saved search: its filter, applied to the whole library. */
  smart: boolean;
  search: CollectionSearchInfo | null;
  /** What it holds now (a smart collection: what its search finds). */
  count: number;
  createdAt: string;
  updatedAt: string;
}

export interface CollectionsChangedInfo {
  collections: CollectionInfo[];
}

export interface FavoriteResultInfo {
  /** Assets whose star changed (already starred ones do not count). */
  changed: number;
}

/** Which hand-made collections hold the given assets, and how many of them each holds. */
export interface CollectionMembershipInfo {
  collectionId: number;
  count: number;
}

export const COLLECTION_NAME_MAX = 80;

const collectionId = v.pipe(
  v.number('The collection id must be a number.'),
  v.integer('The collection id must be a whole number.'),
  v.minValue(1, 'No such collection.'),
);
const collectionName = v.pipe(
  v.string('The name must be text.'),
  v.trim(),
  v.nonEmpty('Give the collection a name.'),
  v.maxLength(COLLECTION_NAME_MAX, `The name is too long (at most ${COLLECTION_NAME_MAX} characters).`),
);
const assetRefs = v.pipe(
  v.array(
    v.strictObject({
      kind: v.picklist(['image', 'video'], 'The asset kind must be image or video.'),
      id: v.pipe(v.string('The asset id must be text.'), v.nonEmpty('The asset id is empty.'), v.maxLength(256)),
    }),
    'Give a list of assets.',
  ),
  v.minLength(1, 'Choose at least one asset.'),
  v.maxLength(ASSETS_PER_CALL, `Too many assets at once (at most ${ASSETS_PER_CALL}).`),
);
/** A saved search: the library's filter without a collection of its own (no nesting). */
export const collectionSearchSchema = v.omit(assetFilterSchema, ['collectionId']);
export type CollectionSearchInfo = Omit<AssetFilter, 'collectionId'>;

const folder = v.pipe(
  v.string('The folder must be text.'),
  v.trim(),
  v.nonEmpty('Choose a folder.'),
  v.maxLength(1024, 'The folder path is too long.'),
  v.check((value) => !value.includes('\0'), 'The folder path contains an invalid character.'),
  v.regex(/^(\/|[A-Za-z]:[\\/]|\\\\[^\\])/, 'The folder must be a full path.'),
);

export const collectionsInvoke = {
  /** Star or unstar, locally. */
  'favorites:set': invoke(v.strictObject({ assets: assetRefs, favorite: v.boolean() }), type<FavoriteResultInfo>()),
  'collections:list': invoke(v.undefined(), type<CollectionInfo[]>()),
  /** With `search`: a smart collection (a saved search). */
  'collections:create': invoke(
    v.strictObject({ name: collectionName, search: v.optional(collectionSearchSchema) }),
    type<CollectionInfo>(),
  ),
  'collections:rename': invoke(v.strictObject({ id: collectionId, name: collectionName }), type<CollectionInfo>()),
  'collections:delete': invoke(v.strictObject({ id: collectionId }), type<null>()),
  /** Hand-made collections only; returns how many were new to it. */
  'collections:add': invoke(
    v.strictObject({ id: collectionId, assets: assetRefs }),
    type<{ added: number; collection: CollectionInfo }>(),
  ),
  'collections:remove': invoke(
    v.strictObject({ id: collectionId, assets: assetRefs }),
    type<{ removed: number; collection: CollectionInfo }>(),
  ),
  'collections:membership': invoke(v.strictObject({ assets: assetRefs }), type<CollectionMembershipInfo[]>()),
  /** Copies the collection's downloaded files into a folder named after it, each with its JSON sidecar. */
  'collections:export': invoke(v.strictObject({ id: collectionId, to: folder }), type<LibraryExportInfo>()),
};

export const collectionsEvents = {
  'collections:changed': type<CollectionsChangedInfo>(),
};

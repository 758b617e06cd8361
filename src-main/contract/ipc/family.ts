// The family tree of an asset (issue 32 item 4): what it was made from and what was made from it,
// across kinds, read from the cache (works offline). One channel, `assets:family`.
import * as v from 'valibot';
import { invoke, type } from './channel.ts';
import { assetKindSchema, serviceIdSchema, type AssetInfo } from './assets.ts';

/**
 * How a relative is related to the asset, as a group of the tree:
 * - parents: `upscaled-from` (the image an upscale was made from), `first-frame`, `last-frame`,
 *   `reference` (an image or video the request named), `training-photo` (the photos that trained the
 *   model that made it);
 * - children: `upscale`, `video` (videos made with it as a frame or reference), `image` (images made
 *   with it as a reference), `model-result` (what the model it trained made);
 * - siblings: `same-job` (the other outputs of its job), `variation` ("Generate again", "Vary" or a
 *   remix of the same request).
 */
export type FamilyRelationInfo =
  | 'upscaled-from'
  | 'first-frame'
  | 'last-frame'
  | 'reference'
  | 'training-photo'
  | 'upscale'
  | 'video'
  | 'image'
  | 'model-result'
  | 'same-job'
  | 'variation';

export interface FamilyGroupInfo {
  relation: FamilyRelationInfo;
  /** The first `FAMILY_GROUP_LIMIT` relatives, newest first (parents in the request's order). */
  items: AssetInfo[];
  /** How many there are in all (more than `items` when the group was cut). */
  total: number;
}

/** A trained model between its training photos and its results, named (never its id). */
export interface FamilyModelInfo {
  id: string;
  name: string;
}

export interface FamilyInfo {
  self: AssetInfo;
  parents: FamilyGroupInfo[];
  children: FamilyGroupInfo[];
  siblings: FamilyGroupInfo[];
  /** The trained model that made it (parents: its training photos) or that its photo trained (children). */
  model: FamilyModelInfo | null;
}

/** At most this many relatives of one group are returned (the rest are counted). */
export const FAMILY_GROUP_LIMIT = 24;
export const familyInvoke = {
  /** The asset's parents, children and siblings (each group cut at FAMILY_GROUP_LIMIT, with its count). */
  'assets:family': invoke(v.strictObject({ kind: assetKindSchema, id: serviceIdSchema }), type<FamilyInfo>()),
};

export const familyEvents = {};

// The assets:family channel: an asset's parents, children and siblings, read from the cache (works
// offline), each group cut at FAMILY_GROUP_LIMIT and counted. The queries are db/repos/lineage-repo.ts.
import { AppError } from '../../contract/errors.ts';
import type { AssetKindInfo } from '../../contract/ipc/library.ts';
import {
  FAMILY_GROUP_LIMIT,
  type FamilyGroupInfo,
  type FamilyInfo,
  type FamilyModelInfo,
  type FamilyRelationInfo,
} from '../../contract/ipc/family.ts';
import { isProvidedModelType, modelName } from '../../contract/names.ts';
import { isTrainedModelId } from '../../contract/rules/model-readiness.ts';
import type { AccountDb } from '../db/account-db.ts';
import type { AssetRow } from '../db/repos/asset-row.ts';
import { referenceRole, type RelativeRows } from '../db/repos/lineage-repo.ts';
import { assetToInfo, type MediaUrlFor } from './to-info.ts';

export interface FamilyHandlerDeps {
  cache(): AccountDb;
  mediaUrlFor: MediaUrlFor;
}

/** The trained model `modelId` as the tree names it, or null for a public or provided model. */
function trainedModel(cache: AccountDb, modelId: string | null): FamilyModelInfo | null {
  if (!isTrainedModelId(modelId)) return null;
  const row = cache.models.get(modelId);
  if (row && isProvidedModelType(row.model_type)) return null;
  return { id: modelId, name: modelName(modelId, { label: row?.label, modelType: row?.model_type }) };
}

/** The family of one asset (the tree around it: one step each way, its siblings beside it). */
export function familyOf(cache: AccountDb, self: AssetRow, mediaUrlFor: MediaUrlFor): FamilyInfo {
  const lineage = cache.lineage;
  const limit = FAMILY_GROUP_LIMIT;
  const info = (row: AssetRow) => assetToInfo(row, mediaUrlFor);
  const group = (relation: FamilyRelationInfo, found: RelativeRows): FamilyGroupInfo | null =>
    found.total === 0 ? null : { relation, items: found.rows.map(info), total: found.total };
  const present = (groups: (FamilyGroupInfo | null)[]): FamilyGroupInfo[] =>
    groups.filter((g): g is FamilyGroupInfo => g !== null);

  // Parents: the upscale's source, the request's frames and references, the model's training photos.
  const source =
    self.kind === 'image' && self.source_asset_id ? cache.assets.get('image', self.source_asset_id) : undefined;
  const byRole = new Map<FamilyRelationInfo, AssetRow[]>();
  for (const row of lineage.referenceParents(self.seq)) {
    if (row.seq === self.seq) continue;
    const role = referenceRole(row.ref_role);
    const relation: FamilyRelationInfo =
      role === 'reference' ? 'reference' : role === 'first_frame' ? 'first-frame' : 'last-frame';
    const list = byRole.get(relation) ?? [];
    if (!list.some((r) => r.seq === row.seq)) list.push(row);
    byRole.set(relation, list);
  }
  const fromRows = (relation: FamilyRelationInfo): FamilyGroupInfo | null => {
    const rows = byRole.get(relation) ?? [];
    return group(relation, { rows: rows.slice(0, limit), total: rows.length });
  };
  const madeBy = self.origin === 'generated' ? trainedModel(cache, self.model_id) : null;
  const trainedOn = madeBy ? lineage.trainingPhotos(madeBy.id, limit) : { rows: [], total: 0 };

  // Children: upscales, what was made with it as a frame or reference, what the model it trained made.
  const trained = self.origin === 'uploaded' && self.type === 'modelInput' ? trainedModel(cache, self.model_id) : null;
  const children = present([
    self.kind === 'image' ? group('upscale', lineage.upscales(self.id, limit)) : null,
    group('video', lineage.referenceChildren(self.seq, 'video', limit)),
    group('image', lineage.referenceChildren(self.seq, 'image', limit)),
    trained ? group('model-result', lineage.modelResults(trained.id, limit)) : null,
  ]);

  return {
    self: info(self),
    parents: present([
      source ? group('upscaled-from', { rows: [source], total: 1 }) : null,
      fromRows('first-frame'),
      fromRows('last-frame'),
      fromRows('reference'),
      group('training-photo', trainedOn),
    ]),
    children,
    siblings: present([
      self.job_id ? group('same-job', lineage.sameJob(self.job_id, self.seq, limit)) : null,
      self.job_id ? group('variation', lineage.variations(self.job_id, limit)) : null,
    ]),
    model: madeBy ?? trained,
  };
}

export function familyHandlers(deps: FamilyHandlerDeps) {
  return {
    'assets:family': ({ kind, id }: { kind: AssetKindInfo; id: string }): FamilyInfo => {
      const cache = deps.cache();
      const self = cache.assets.get(kind, id);
      if (!self) throw new AppError({ code: 'not_found', field: 'id', message: `No ${kind} ${id} in the library.` });
      return familyOf(cache, self, deps.mediaUrlFor);
    },
  };
}

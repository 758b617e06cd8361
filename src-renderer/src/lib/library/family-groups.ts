// The family tree's groups in words: what each relation is called above its thumbnails, and the
// order the viewer shows them in (contract/ipc/family.ts declares the relations).
import type { FamilyGroupInfo, FamilyInfo, FamilyRelationInfo } from '@contract/ipc/family.ts';

/** A group's heading; a trained model's groups name it. */
export function familyGroupLabel(relation: FamilyRelationInfo, modelName: string | null): string {
  const model = modelName ?? 'its model';
  switch (relation) {
    case 'upscaled-from':
      return 'Upscaled from';
    case 'first-frame':
      return 'First frame';
    case 'last-frame':
      return 'Last frame';
    case 'reference':
      return 'References';
    case 'training-photo':
      return `Training photos of ${model}`;
    case 'upscale':
      return 'Upscales';
    case 'video':
      return 'Videos made from it';
    case 'image':
      return 'Images made from it';
    case 'model-result':
      return `Made by ${model}`;
    case 'same-job':
      return 'Same request';
    case 'variation':
      return 'Variations';
  }
}

export interface FamilyLevel {
  level: 'parents' | 'children' | 'siblings';
  label: string;
  groups: FamilyGroupInfo[];
}

/** The tree's three levels, each with its groups; a level without any is left out. */
export function familyLevels(family: FamilyInfo): FamilyLevel[] {
  return [
    { level: 'parents' as const, label: 'Made from', groups: family.parents },
    { level: 'children' as const, label: 'Made from it', groups: family.children },
    { level: 'siblings' as const, label: 'Beside it', groups: family.siblings },
  ].filter((l) => l.groups.length > 0);
}

/** How many relatives the tree knows of, in all. */
export const familySize = (family: FamilyInfo): number =>
  [...family.parents, ...family.children, ...family.siblings].reduce((n, g) => n + g.total, 0);

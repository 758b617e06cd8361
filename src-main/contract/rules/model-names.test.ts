import { describe, expect, it } from 'vitest';
import { PUBLIC_IMAGE_MODEL_IDS } from './image-models.ts';
import { publicModelFamilies } from './model-names.ts';
import { VIDEO_MODEL_IDS } from './video-models.ts';

describe('publicModelFamilies', () => {
  it('groups every public image model once, by family, named in words', () => {
    const groups = publicModelFamilies('image');
    expect(groups.map((g) => g.label)).toEqual(['Image family A', 'Image family B', 'Image family C']);
    expect(groups.flatMap((g) => g.ids).sort()).toEqual([...PUBLIC_IMAGE_MODEL_IDS].sort());
    expect(groups[0]?.ids).toContain('imagea-pro');
  });

  it('groups every video model once, motion apart from video C', () => {
    const groups = publicModelFamilies('video');
    expect(groups.flatMap((g) => g.ids).sort()).toEqual([...VIDEO_MODEL_IDS].sort());
    expect(groups.map((g) => g.label)).toContain('Video family C · motion');
    expect(groups.every((g) => !g.label.includes('-'))).toBe(true);
  });
});

// The public preset catalogue served by GET /presets (the spec lists the shape, not the entries; these are ours).

export interface PresetEntry {
  tag: string;
  name: string;
  category: string;
}

export const PRESETS: readonly PresetEntry[] = [
  { tag: 'photo-natural-light', name: 'Natural light photo', category: 'Photography' },
  { tag: 'photo-studio-portrait', name: 'Studio portrait', category: 'Photography' },
  { tag: 'photo-golden-hour', name: 'Golden hour', category: 'Photography' },
  { tag: 'photo-black-and-white', name: 'Black and white', category: 'Photography' },
  { tag: 'cinematic-noir', name: 'Film noir', category: 'Cinematic' },
  { tag: 'cinematic-teal-orange', name: 'Teal and orange grade', category: 'Cinematic' },
  { tag: 'cinematic-anamorphic', name: 'Anamorphic widescreen', category: 'Cinematic' },
  { tag: 'illustration-watercolor', name: 'Watercolor', category: 'Illustration' },
  { tag: 'illustration-ink-sketch', name: 'Ink sketch', category: 'Illustration' },
  { tag: 'illustration-flat-vector', name: 'Flat vector', category: 'Illustration' },
  { tag: 'illustration-storybook', name: 'Storybook', category: 'Illustration' },
  { tag: '3d-clay', name: 'Clay render', category: '3D' },
  { tag: '3d-isometric', name: 'Isometric diorama', category: '3D' },
  { tag: '3d-product-render', name: 'Product render', category: '3D' },
  { tag: 'art-oil-painting', name: 'Oil painting', category: 'Fine art' },
  { tag: 'art-impressionist', name: 'Impressionist', category: 'Fine art' },
  { tag: 'design-minimal-poster', name: 'Minimal poster', category: 'Design' },
  { tag: 'design-packaging', name: 'Packaging mock-up', category: 'Design' },
];

export function isPresetTag(tag: string): boolean {
  return PRESETS.some((p) => p.tag === tag);
}

// What the cache stores of a service record (its columns, as the repositories take them): the
// service's wire records are turned into these by api/server-records.ts.

export type AssetKind = 'image' | 'video';
export type AssetOrigin = 'generated' | 'uploaded';

export interface AssetServerFields {
  kind: AssetKind;
  id: string;
  origin: AssetOrigin;
  modelId: string | null;
  type: string | null;
  url: string | null;
  upscaledImageId: string | null;
  upscaledImageUrl: string | null;
  folderId: string | null;
  publicMediaId: string | null;
  liked: boolean;
  data: string | null;
  createdAt: number | null;
  updatedAt: number | null;
  serverHash: string;
  hls: boolean;
  // Hints: written only where the cache has nothing better (the engine records the real request).
  jobId: string | null;
  sourceAssetId: string | null;
  prompt: string | null;
  params: string | null;
  preset: string | null;
  width: number | null;
  height: number | null;
  durationMs: number | null;
  format: string | null;
}

export interface ModelServerFields {
  id: string;
  modelType: string;
  status: string;
  createdAt: number | null;
  updatedAt: number | null;
  serverHash: string;
}

export interface PresetFields {
  tag: string;
  name: string;
  category: string;
}

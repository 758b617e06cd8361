// Fills a cache with a large, deterministic, realistic-looking library (for tests, benchmarks and
// e2e): job bursts sharing one timestamp, a mix of models, kinds, likes and offline files.
import type { AccountDb } from '../account-db.ts';

export interface SeedOptions {
  /** Same seed, same library. Default 1. */
  seed?: number;
  /** The newest asset's time (epoch ms). Default 2026-01-01T00:00:00Z. */
  newest?: number;
  /** How far back the library reaches. Default two years. */
  spanMs?: number;
  /** Prefix of the generated ids, so several seeds can share one cache. Default 'seed'. */
  idPrefix?: string;
}

export interface SeedSummary {
  inserted: number;
  images: number;
  videos: number;
  offline: number;
  liked: number;
  uploaded: number;
  byModel: Record<string, number>;
}

const WORDS = (
  'sunset beach portrait studio neon city forest mountain river ocean golden hour cinematic macro ' +
  'watercolor oil painting sketch minimal vintage film grain noir pastel vivid dramatic soft light ' +
  'castle dragon robot astronaut garden flower coffee kitchen desert snow rain storm night stars ' +
  'galaxy cat dog horse fox owl lighthouse bridge harbor market street cafe library museum temple ' +
  'café façade crème jalapeño smoke mirror glass velvet marble copper'
).split(' ');

const PRESETS = ['', '', '', 'cinematic', 'anime', 'photo', 'fantasy', 'comic'];
const IMAGE_MODELS = ['imagea', 'imagea-pro', 'imageb', 'imagec-2', 'model-portrait', 'model-product'];
const VIDEO_MODELS = ['videoa-3.1', 'videob-2.0', 'videod-1.5'];

/** Small fast deterministic generator (mulberry32). */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function seedAssets(cache: AccountDb, count: number, options: SeedOptions = {}): SeedSummary {
  const rand = random(options.seed ?? 1);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)] as T;
  const newest = options.newest ?? Date.parse('2026-01-01T00:00:00Z');
  const span = options.spanMs ?? 2 * 365 * 24 * 3600 * 1000;
  const prefix = options.idPrefix ?? 'seed';
  const summary: SeedSummary = { inserted: 0, images: 0, videos: 0, offline: 0, liked: 0, uploaded: 0, byModel: {} };
  // Fixed column list; the seed bypasses the server-record path to fill local columns as well.
  const insert = cache.sqlite.prepare(`
    INSERT INTO assets (kind, id, origin, model_id, type, url, liked, created_at, updated_at, local_created_at,
      job_id, prompt, params, preset, file_state, local_path, bytes, width, height, duration_ms, hls)
    VALUES (@kind, @id, @origin, @modelId, @type, @url, @liked, @createdAt, @createdAt, @createdAt,
      @jobId, @prompt, @params, @preset, @fileState, @localPath, @bytes, @width, @height, @durationMs, @hls)`);
  cache.transaction(() => {
    let i = 0;
    let job = 0;
    while (i < count) {
      // One job: 1–4 outputs sharing a timestamp (whole seconds), so keyset ties are common.
      const video = rand() < 0.15;
      const uploaded = !video && rand() < 0.02;
      const burst = video || uploaded ? 1 : 1 + Math.floor(rand() * 4);
      const createdAt = Math.floor((newest - rand() * span) / 1000) * 1000;
      const modelId = video ? pick(VIDEO_MODELS) : pick(IMAGE_MODELS);
      const words = Array.from({ length: 4 + Math.floor(rand() * 8) }, () => pick(WORDS));
      const prompt = uploaded ? null : words.join(' ');
      const preset = uploaded ? null : pick(PRESETS);
      const jobId = uploaded ? null : `${prefix}-job-${job++}`;
      const params =
        prompt === null
          ? null
          : JSON.stringify({
              modelID: modelId,
              prompt,
              ...(preset ? { preset } : {}),
              ...(video
                ? { options: { duration: 4 + Math.floor(rand() * 8) } }
                : { aspectRatio: pick(['1:1', '16:9', '3:4']), seed: Math.floor(rand() * 1e6) }),
            });
      for (let k = 0; k < burst && i < count; k += 1, i += 1) {
        const kind = video ? 'video' : 'image';
        const offline = rand() < 0.2;
        const liked = rand() < 0.05;
        const id = `${prefix}-${kind === 'video' ? 'vid' : 'img'}-${i}`;
        insert.run({
          kind,
          id,
          origin: uploaded ? 'uploaded' : 'generated',
          modelId,
          type: uploaded ? 'modelInput' : video ? 'video' : 'output',
          url: `https://media.example.test/${id}.${video ? 'mp4' : 'jpg'}`,
          liked: liked ? 1 : 0,
          createdAt,
          jobId,
          prompt,
          params,
          preset: preset || null,
          fileState: offline ? 'downloaded' : 'remote',
          localPath: offline ? `${kind}s/${id}.${video ? 'mp4' : 'jpg'}` : null,
          bytes: offline ? 100_000 + Math.floor(rand() * 2_000_000) : null,
          width: video ? 1280 : 1024,
          height: video ? 720 : 1024,
          durationMs: video ? 8000 : null,
          hls: 0,
        });
        summary.inserted += 1;
        if (kind === 'video') summary.videos += 1;
        else summary.images += 1;
        if (offline) summary.offline += 1;
        if (liked) summary.liked += 1;
        if (uploaded) summary.uploaded += 1;
        summary.byModel[modelId] = (summary.byModel[modelId] ?? 0) + 1;
      }
    }
  });
  return summary;
}

/**
 * A sync of an asset the cache already holds, as the service would send it again: its own record,
 * changed on the server (a new hash) with `liked` as given. What a sync must leave alone (local
 * marks, stars set here, the file) is then checked by the caller.
 */
export function resyncAsset(cache: AccountDb, kind: 'image' | 'video', id: string, liked: boolean): void {
  const row = cache.assets.get(kind, id);
  if (!row) throw new Error(`no ${kind} ${id} in the cache`);
  cache.assets.upsertFromServer(
    {
      kind: row.kind,
      id: row.id,
      origin: row.origin,
      modelId: row.model_id,
      type: row.type,
      url: row.url,
      upscaledImageId: null,
      upscaledImageUrl: null,
      folderId: null,
      publicMediaId: null,
      liked,
      data: null,
      createdAt: row.created_at,
      updatedAt: Date.now(),
      serverHash: 'changed',
      jobId: null,
      sourceAssetId: null,
      prompt: null,
      params: null,
      preset: null,
      width: null,
      height: null,
      durationMs: null,
      hls: false,
    } as never,
    Date.now(),
  );
}

// The demo's lived-in library: about 200 images and videos over a week across the public models,
// two ready trained models with their training photos, jobs with credits, favourite and collection
// hints; fast, the same every time, and left alone on a restart.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PUBLIC_IMAGE_MODELS } from '../src-main/contract/rules/index.ts';
import { startTestEmulator, type Api } from './test-support.ts';

const DAY = 24 * 3600_000;

interface Listed {
  id: string;
  type?: string;
  data?: { demo?: { favorite?: boolean; collections?: string[]; modelLabel?: string }; fileName?: string };
  createdAt: string;
}

async function all(api: Api, path: string): Promise<Listed[]> {
  const items: Listed[] = [];
  let cursor: string | null = null;
  do {
    const response = await api.get<Listed[]>(
      `${path}${path.includes('?') ? '&' : '?'}pageSize=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    const body = response.body as unknown as { result: Listed[]; nextCursor?: string | null; hasMore?: boolean };
    items.push(...body.result);
    cursor = body.hasMore ? (body.nextCursor ?? null) : null;
  } while (cursor);
  return items;
}

/** Every job of the last 7 days of virtual time (one list window, all pages). */
async function weekOfJobs(api: Api, now: number): Promise<{ jobId: string; status: string; credits: number }[]> {
  const range = `start=${encodeURIComponent(new Date(now - 7 * DAY).toISOString())}&end=${encodeURIComponent(new Date(now).toISOString())}`;
  const jobs: { jobId: string; status: string; credits: number }[] = [];
  let token = '';
  do {
    const page: { jobs: typeof jobs; nextPageToken: string } = await api.ok(
      'GET',
      `/jobs?${range}${token ? `&pageToken=${encodeURIComponent(token)}` : ''}`,
    );
    jobs.push(...page.jobs);
    token = page.nextPageToken;
  } while (token);
  return jobs;
}

/** What a client can reach, as the app's sync does: own models' image lists, then the job list for public-model results. */
async function library(api: Api, now: number) {
  const models: { id: string; status: string; modelType: string }[] = await api.ok('GET', '/models');
  const images = new Map<string, Listed>();
  for (const { id } of models) for (const image of await all(api, `/models/${id}/images`)) images.set(image.id, image);
  for (const job of await weekOfJobs(api, now)) {
    if (job.status !== 'success') continue;
    const record: { images?: { id: string }[] } = await api.ok('GET', `/jobs/${job.jobId}`);
    for (const { id } of record.images ?? []) {
      if (!images.has(id)) images.set(id, await api.ok<Listed>('GET', `/images/${id}`));
    }
  }
  const videos = await all(api, '/videos');
  return { models, images: [...images.values()], videos };
}

describe('the demo library', () => {
  it('holds a week of results across the models, two trained models, hints for favourites and collections', async () => {
    const started = performance.now();
    const { emulator, api } = await startTestEmulator({ demoLibrary: true, apiKeys: ['demo-key'] });
    try {
      expect(performance.now() - started).toBeLessThan(2000);
      const { models, images, videos } = await library(api, emulator.control.now());
      const trained = models.filter((m) => m.id.startsWith('mdl_'));
      expect(trained.map((m) => m.status)).toEqual(['ready', 'ready']);
      const outputs = images.filter((i) => i.type === 'output');
      const photos = images.filter((i) => i.type === 'modelInput');
      expect(outputs.length + videos.length).toBeGreaterThanOrEqual(180);
      expect(outputs.length + videos.length).toBeLessThanOrEqual(260);
      expect(videos.length).toBeGreaterThanOrEqual(20);
      expect(photos.length).toBe(26);
      expect(photos.every((p) => /^(maya|ceramic)-\d\d\.jpg$/.test(p.data?.fileName ?? ''))).toBe(true);
      expect(new Set(photos.map((p) => p.data?.demo?.modelLabel)).size).toBe(2);
      const publicModels = new Set(outputs.map((i) => (i as { modelID?: string }).modelID));
      expect(publicModels.size).toBeGreaterThanOrEqual(6);

      const times = [...outputs, ...videos].map((i) => Date.parse(i.createdAt));
      const span = Math.max(...times) - Math.min(...times);
      expect(span).toBeGreaterThan(5 * 24 * 3600_000);
      expect(span).toBeLessThan(8 * 24 * 3600_000);

      const favorites = [...outputs, ...videos].filter((i) => i.data?.demo?.favorite);
      expect(favorites.length).toBeGreaterThanOrEqual(6);
      const collections = new Set([...outputs, ...videos].flatMap((i) => i.data?.demo?.collections ?? []));
      expect([...collections].sort()).toEqual(['Coastlines', 'Product shots']);

      // Every job of the history lies within one 7-day list window of the virtual now.
      const jobs = await weekOfJobs(api, emulator.control.now());
      expect(jobs.length).toBe(60 + 24 + 2 + 14);
      expect(jobs.filter((j) => j.status === 'success').every((j) => j.credits > 0)).toBe(true);
      for (const id of Object.keys(PUBLIC_IMAGE_MODELS)) {
        expect((await api.get(`/models/${id}/images`)).http).toBe(404);
      }
    } finally {
      await emulator.close();
    }
  });

  it('is the same library every time, and a restart keeps it instead of adding another', async () => {
    const prompts = async (dataDir?: string) => {
      const { emulator, api } = await startTestEmulator({
        demoLibrary: true,
        apiKeys: ['demo-key'],
        ...(dataDir ? { dataDir } : {}),
      });
      try {
        const { images, videos } = await library(api, emulator.control.now());
        return [...images, ...videos].map((i) => `${(i.data as { prompt?: string } | undefined)?.prompt ?? ''}`).sort();
      } finally {
        await emulator.close();
      }
    };
    const one = await prompts();
    expect(await prompts()).toEqual(one);
    const dir = mkdtempSync(join(tmpdir(), 'atelier-demo-lib-'));
    try {
      expect(await prompts(dir)).toEqual(one);
      expect(await prompts(dir)).toEqual(one);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

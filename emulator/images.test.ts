// Image generation, trained-model checks, image lists with cursor pages, GET/DELETE image and upscaling.
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { requestedMedia } from '../src-main/contract/media-size.ts';
import type { RunningEmulator } from './index.ts';
import { Api, createModel, MINUTE, smallPng, startTestEmulator, uploadMany } from './test-support.ts';

interface JobInfo {
  jobId: string;
  status: string;
  images?: { id: string; url: string }[];
  error?: string;
}
type ImageInfo = Record<string, unknown> & { id: string; url: string; type: string };

let emulator: RunningEmulator;
let api: Api;

beforeAll(async () => {
  ({ emulator, api } = await startTestEmulator());
});
beforeEach(() => emulator.control.reset());
afterAll(() => emulator.close());

async function generate(body: Record<string, unknown>): Promise<string> {
  const res = await api.post<{ jobId: string; status: string }>('/images/generation', body);
  if (res.http !== 200) throw new Error(res.body.message);
  expect(res.body.result.status).toBe('queued');
  return res.body.result.jobId;
}

async function finished(jobId: string): Promise<JobInfo> {
  emulator.control.advanceClock(MINUTE);
  return api.ok<JobInfo>('GET', `/jobs/${jobId}`);
}

async function dimensionsOf(url: string): Promise<{ width?: number; height?: number; format?: string }> {
  const bytes = Buffer.from(await (await fetch(url)).arrayBuffer());
  const meta = await sharp(bytes).metadata();
  return { width: meta.width, height: meta.height, format: meta.format };
}

describe('POST /images/generation (public models)', () => {
  it('runs queued → running → success in 15–30 virtual seconds and then lists its images', async () => {
    const jobId = await generate({ modelID: 'imagea', prompt: 'a red fox in snow', numImages: 2 });
    expect((await api.ok<JobInfo>('GET', `/jobs/${jobId}`)).status).toBe('queued');
    emulator.control.advanceClock(6_000);
    const running = await api.ok<JobInfo>('GET', `/jobs/${jobId}`);
    expect(running.status).toBe('running');
    expect(running).not.toHaveProperty('images');
    emulator.control.advanceClock(25_000);
    const done = await api.ok<JobInfo>('GET', `/jobs/${jobId}`);
    expect(done.status).toBe('success');
    expect(done.images).toHaveLength(2);
    const image = await api.ok<ImageInfo>('GET', `/images/${done.images?.[0]?.id}`);
    expect(image).toMatchObject({ modelID: 'imagea', type: 'output', data: { prompt: 'a red fox in snow', jobId } });
  });

  it('renders imagec-2 at the size resolveImagecSize gives, in the requested format', async () => {
    const jobId = await generate({
      modelID: 'imagec-2',
      prompt: 'a blueprint',
      aspectRatio: '16:9',
      options: { imagec: { imageSize: '2K', outputFormat: 'png' } },
    });
    const job = await finished(jobId);
    expect(await dimensionsOf(job.images?.[0]?.url ?? '')).toEqual({ width: 2720, height: 1536, format: 'png' });
  });

  it('renders other public models by tier and aspect ratio as JPEG', async () => {
    const job = await finished(await generate({ modelID: 'imagea', prompt: 'tall', aspectRatio: '9:16' }));
    expect(await dimensionsOf(job.images?.[0]?.url ?? '')).toEqual({ width: 576, height: 1024, format: 'jpeg' });
  });

  it('renders at the size the client says (the contract rule: a derived edge rounded down to 16)', async () => {
    // 3:2 at 1K: 1024 × 682.7, so 1024 × 672, as Create and the library say; never 1024 × 688.
    const body = { modelID: 'imageb', prompt: 'wide', aspectRatio: '3:2', options: { imageb: { imageSize: '1K' } } };
    expect(requestedMedia('image', body)).toMatchObject({ width: 1024, height: 672 });
    const job = await finished(await generate(body));
    expect(await dimensionsOf(job.images?.[0]?.url ?? '')).toEqual({ width: 1024, height: 672, format: 'jpeg' });
  });

  it('gives distinct pictures for distinct prompts', async () => {
    const a = await finished(await generate({ modelID: 'imagea', prompt: 'first prompt' }));
    const b = await finished(await generate({ modelID: 'imagea', prompt: 'second prompt' }));
    const bytesA = Buffer.from(await (await fetch(a.images?.[0]?.url ?? '')).arrayBuffer());
    const bytesB = Buffer.from(await (await fetch(b.images?.[0]?.url ?? '')).arrayBuffer());
    expect(bytesA.equals(bytesB)).toBe(false);
  });

  it('refuses what the shared rules refuse, with 400 naming each field', async () => {
    const res = await api.post('/images/generation', {
      modelID: 'imagea',
      prompt: 'x',
      numImages: 9,
      options: { imageb: {} },
    });
    expect(res.http).toBe(400);
    expect(res.body.err).toBe('validation_error');
    expect(res.body.message).toMatch(/^numImages: /);
    expect(res.body.message).toContain('options.imageb: ');
    expect((await api.post('/images/generation', 'not an object')).http).toBe(400);
  });

  it('refuses an unknown preset tag and accepts a real one', async () => {
    const bad = await api.post('/images/generation', { modelID: 'imagea', prompt: 'x', preset: 'no-such-preset' });
    expect(bad.http).toBe(400);
    expect(bad.body.message).toMatch(/^preset: /);
    expect(
      (await api.post('/images/generation', { modelID: 'imagea', prompt: 'x', preset: 'cinematic-noir' })).http,
    ).toBe(200);
  });

  it('fails a job whose prompt contains [fail], with an error text and no images', async () => {
    const job = await finished(await generate({ modelID: 'imageb', prompt: 'please [FAIL] now' }));
    expect(job.status).toBe('failed');
    expect(job.error).toContain('[fail]');
    expect(job).not.toHaveProperty('images');
  });
});

describe('POST /images/generation (trained models)', () => {
  it('generates from a ready built-in model with an auxiliaryType input image, at width × height as PNG', async () => {
    await api.get('/models');
    const aux = await api.upload('free-general', 'auxiliaryType', await smallPng());
    const job = await finished(
      await generate({ modelID: 'free-general', inputImageId: aux.body.result.id, width: 512, height: 768, seed: 7 }),
    );
    expect(job.status).toBe('success');
    expect(await dimensionsOf(job.images?.[0]?.url ?? '')).toEqual({ width: 512, height: 768, format: 'png' });
  });

  it('refuses a model that is not ready, an unknown model, and a non-auxiliary input image', async () => {
    const id = await createModel(api);
    const notReady = await api.post('/images/generation', { modelID: id, prompt: 'x' });
    expect(notReady.http).toBe(400);
    expect(notReady.body.message).toMatch(/^modelID: .*new/);
    expect((await api.post('/images/generation', { modelID: 'mdl_unknown', prompt: 'x' })).body.message).toMatch(
      /^modelID: /,
    );

    await api.get('/models');
    const input = await api.upload('free-general', 'modelInput', await smallPng());
    const wrongType = await api.post('/images/generation', {
      modelID: 'free-general',
      inputImageId: input.body.result.id,
    });
    expect(wrongType.http).toBe(400);
    expect(wrongType.body.message).toMatch(/^inputImageId: /);
    const missing = await api.post('/images/generation', { modelID: 'free-general', inputImageId: 'img_missing' });
    expect(missing.body.message).toMatch(/^inputImageId: /);
  });
});

describe('GET /models/{id}/images', () => {
  it('pages with cursors, keeps the filter, and covers every image once', async () => {
    const modelID = await createModel(api);
    await uploadMany(api, modelID, 'modelInput', 13);
    await uploadMany(api, modelID, 'auxiliaryType', 2);
    const seen: string[] = [];
    let cursor = '';
    let pages = 0;
    for (;;) {
      const res = await api.get<ImageInfo[]>(`/models/${modelID}/images?imageType=input&pageSize=5&cursor=${cursor}`);
      pages += 1;
      expect(res.body).toMatchObject({ status: 'OK', page: pages, pageSize: 5 });
      expect(res.body.result.every((i) => i.type === 'modelInput')).toBe(true);
      seen.push(...res.body.result.map((i) => i.id));
      if (!res.body.hasMore) {
        expect(res.body.nextCursor).toBe('');
        break;
      }
      cursor = encodeURIComponent(res.body.nextCursor ?? '');
    }
    expect(pages).toBe(3);
    expect(new Set(seen).size).toBe(13);
    const all = await api.get<ImageInfo[]>(`/models/${modelID}/images?imageType=all`);
    expect(all.body.result).toHaveLength(15);
    const aux = await api.get<ImageInfo[]>(`/models/${modelID}/images?imageType=auxiliaryType`);
    expect(aux.body.result).toHaveLength(2);
  });

  it('falls back to 20 for an invalid pageSize', async () => {
    const modelID = await createModel(api);
    await uploadMany(api, modelID, 'modelInput', 20);
    await uploadMany(api, modelID, 'auxiliaryType', 1);
    for (const pageSize of ['0', '101', 'abc', '2.5']) {
      const res = await api.get<ImageInfo[]>(`/models/${modelID}/images?pageSize=${pageSize}`);
      expect(res.body.pageSize).toBe(20);
      expect(res.body.result).toHaveLength(20);
      expect(res.body.hasMore).toBe(true);
    }
    const hundred = await api.get<ImageInfo[]>(`/models/${modelID}/images?pageSize=100`);
    expect(hundred.body).toMatchObject({ pageSize: 100, hasMore: false, nextCursor: '' });
  });

  it('refuses a cursor reused with another filter, a forged cursor and an unknown imageType', async () => {
    const modelID = await createModel(api);
    await uploadMany(api, modelID, 'modelInput', 3);
    const first = await api.get<ImageInfo[]>(`/models/${modelID}/images?pageSize=1`);
    const cursor = encodeURIComponent(first.body.nextCursor ?? '');
    expect((await api.get(`/models/${modelID}/images?pageSize=1&cursor=${cursor}`)).http).toBe(200);
    const changed = await api.get(`/models/${modelID}/images?pageSize=2&cursor=${cursor}`);
    expect(changed.http).toBe(400);
    expect(changed.body.message).toMatch(/^cursor: /);
    expect((await api.get(`/models/${modelID}/images?cursor=garbage`)).http).toBe(400);
    const badType = await api.get(`/models/${modelID}/images?imageType=thumbnails`);
    expect(badType.body.message).toMatch(/^imageType: /);
  });

  it('has no list for a public model id: its outputs are reached through the job, for their owner only', async () => {
    const job = await finished(await generate({ modelID: 'imageb-4_5', prompt: 'public output', numImages: 3 }));
    expect((await api.get('/models/imageb-4_5/images?imageType=output')).http).toBe(404);
    const ids = (job.images ?? []).map((i) => i.id);
    expect(ids).toHaveLength(3);
    for (const id of ids) expect((await api.ok<ImageInfo>('GET', `/images/${id}`)).modelID).toBe('imageb-4_5');
    const other = new Api(emulator.url, 'other-key');
    expect((await other.get(`/images/${ids[0]!}`)).http).toBe(404);
    expect((await other.get('/models/imageb-4_5/images')).http).toBe(404);
  });
});

describe('GET/DELETE /images/{id}', () => {
  it('reads and deletes an image; outputs do not exist before their job finishes', async () => {
    const jobId = await generate({ modelID: 'imagea', prompt: 'soon' });
    emulator.control.advanceClock(MINUTE);
    const job = await api.ok<JobInfo>('GET', `/jobs/${jobId}`);
    const id = job.images?.[0]?.id ?? '';
    expect((await api.get(`/images/${id}`)).http).toBe(200);
    const deleted = await api.delete(`/images/${id}`);
    expect(deleted.http).toBe(200);
    expect(deleted.body).toEqual({ result: null, status: 'OK' });
    expect((await api.get(`/images/${id}`)).http).toBe(404);
    expect((await api.delete(`/images/${id}`)).http).toBe(404);

    const pending = await generate({ modelID: 'imagea', prompt: 'not yet' });
    const running = await api.ok<JobInfo>('GET', `/jobs/${pending}`);
    expect(running.images ?? []).toEqual([]);
  });
});

describe('POST /images/upscaling', () => {
  it('makes a new, twice-as-large image and links it from the source', async () => {
    const job = await finished(await generate({ modelID: 'imagea', prompt: 'to upscale' }));
    const sourceId = job.images?.[0]?.id ?? '';
    const res = await api.post<{ jobId: string; status: string }>('/images/upscaling', { imageID: sourceId });
    expect(res.body.result.status).toBe('queued');
    expect((await api.ok<ImageInfo>('GET', `/images/${sourceId}`)).upscaledImageID).toBe('');
    const up = await finished(res.body.result.jobId);
    expect(up.status).toBe('success');
    const upscaled = up.images?.[0];
    const source = await api.ok<ImageInfo>('GET', `/images/${sourceId}`);
    expect(source.upscaledImageID).toBe(upscaled?.id);
    expect(source.upscaledImageURL).toBe(upscaled?.url);
    expect(await dimensionsOf(upscaled?.url ?? '')).toMatchObject({ width: 2048, height: 2048 });
  });

  it('keeps the last finished upscale linked while a newer one runs, then links the newer one', async () => {
    const job = await finished(await generate({ modelID: 'imagea', prompt: 'upscale me twice' }));
    const sourceId = job.images?.[0]?.id ?? '';
    const upscale = async (): Promise<string> =>
      (await api.ok<{ jobId: string }>('POST', '/images/upscaling', { imageID: sourceId })).jobId;
    const first = (await finished(await upscale())).images?.[0];
    expect(first?.id).toBeTruthy();

    const secondJob = await upscale();
    emulator.control.advanceClock(4_000); // past the 1–3 s queue, well before the 10 s minimum run
    expect((await api.ok<JobInfo>('GET', `/jobs/${secondJob}`)).status).toBe('running');
    const during = await api.ok<ImageInfo>('GET', `/images/${sourceId}`);
    expect({ id: during.upscaledImageID, url: during.upscaledImageURL }).toEqual({ id: first?.id, url: first?.url });

    const second = (await finished(secondJob)).images?.[0];
    expect(second?.id).not.toBe(first?.id);
    const after = await api.ok<ImageInfo>('GET', `/images/${sourceId}`);
    expect({ id: after.upscaledImageID, url: after.upscaledImageURL }).toEqual({ id: second?.id, url: second?.url });
  });

  it('upscales an uploaded image from its real pixels', async () => {
    const modelID = await createModel(api);
    const upload = await api.upload(modelID, 'auxiliaryType', await smallPng());
    const up = await finished(
      (await api.ok<{ jobId: string }>('POST', '/images/upscaling', { imageID: upload.body.result.id })).jobId,
    );
    expect(await dimensionsOf(up.images?.[0]?.url ?? '')).toEqual({ width: 128, height: 96, format: 'png' });
  });

  it("refuses a missing imageID, an unknown image and another user's image", async () => {
    expect((await api.post('/images/upscaling', {})).body.message).toMatch(/^imageID: /);
    const unknown = await api.post('/images/upscaling', { imageID: 'img_missing' });
    expect(unknown.http).toBe(400);
    expect(unknown.body.message).toMatch(/^imageID: /);
    const job = await finished(await generate({ modelID: 'imagea', prompt: 'mine' }));
    const theirs = await new Api(emulator.url, 'other-key').post('/images/upscaling', { imageID: job.images?.[0]?.id });
    expect(theirs.http).toBe(400);
  });
});

// Every endpoint of the spec through the client, against the emulator over loopback: models,
// uploads with progress, training, image/upscale/video jobs, lists across pages, downloads, presets.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isJobSuccess, isJobTerminal, isModelUsable, type ImageRecord } from '../../contract/service.ts';
import { ServiceError } from './errors.ts';
import { collectAll } from './pagination.ts';
import { fixtureImage, routeCount, startClientHarness, type ClientHarness } from './test-support/client-harness.ts';
import type { UploadProgress } from './upload.ts';

let h: ClientHarness;
beforeAll(async () => {
  h = await startClientHarness();
});
afterAll(async () => {
  await h.close();
});

const MINUTE = 60_000;

async function codeOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof ServiceError)) throw new Error(`expected a ServiceError, got ${String(error)}`);
  return error.info.code;
}

describe('models, uploads and training', () => {
  it('creates, reads, updates, uploads to, lists, trains and deletes a model', async () => {
    const { client, emulator } = h;
    const builtIns = await client.listModels();
    expect(builtIns.map((m) => m.id)).toContain('free-general');

    const model = await client.createModel({ modelType: 'person' });
    expect(model).toMatchObject({ modelType: 'person', status: 'new' });
    expect(await client.getModel(model.id)).toEqual(model);
    expect((await client.createModel({ id: model.id, modelType: 'style' })).modelType).toBe('style');
    expect((await client.listModels()).map((m) => m.id)).toContain(model.id);

    // 12 training images in three formats; progress is watched on the first.
    const progress: UploadProgress[] = [];
    const formats = ['png', 'jpeg', 'webp'] as const;
    for (let i = 0; i < 12; i++) {
      const bytes = await fixtureImage(formats[i % 3]!, i, 96);
      const uploaded = await client.uploadImage({
        modelID: model.id,
        type: 'modelInput',
        file: { name: `train-${i}.bin`, bytes },
        existingCountOfType: i,
        ...(i === 0 ? { onProgress: (p: UploadProgress) => progress.push(p) } : {}),
      });
      expect(uploaded).toMatchObject({ modelID: model.id, type: 'modelInput' });
      expect(uploaded.id).not.toBe('');
    }
    expect(progress.length).toBeGreaterThan(0);
    const last = progress.at(-1)!;
    expect(last.percent).toBe(1);
    expect(last.transferred).toBe(last.total);
    expect(last.total).toBeGreaterThan(96); // the multipart request, not just the file
    const reference = await client.uploadImage({
      modelID: model.id,
      type: 'auxiliaryType',
      file: { name: 'ref.png', bytes: await fixtureImage('png', 99) },
    });
    expect(reference.type).toBe('auxiliaryType');

    // Pages of 5 with a fixed filter: 5 + 5 + 2, each page asked for once.
    emulator.control.resetStats();
    const pages = [];
    for await (const page of client.listModelImages(model.id, { imageType: 'input', pageSize: 5 })) pages.push(page);
    expect(pages.map((p) => p.items.length)).toEqual([5, 5, 2]);
    expect(pages.map((p) => p.hasMore)).toEqual([true, true, false]);
    expect(pages.at(-1)!.nextCursor).toBe('');
    expect(routeCount(emulator, 'GET /models/:modelID/images')).toBe(3);
    const all = await collectAll(client.listModelImages(model.id, { pageSize: 5 }));
    expect(new Set(all.map((i: ImageRecord) => i.id)).size).toBe(13);
    expect(await collectAll(client.listModelImages(model.id, { imageType: 'auxiliaryType' }))).toHaveLength(1);
    expect(await collectAll(client.listModelImages(model.id, { pageSize: 5 }), { maxItems: 7 })).toHaveLength(7);

    expect(typeof (await client.trainModel(model.id))).toBe('string');
    expect(isModelUsable((await client.getModel(model.id)).status)).toBe(false);
    emulator.control.advanceClock(26 * MINUTE);
    expect((await client.getModel(model.id)).status).toBe('ready');

    expect(typeof (await client.deleteModel(model.id))).toBe('string');
    expect(await codeOf(client.getModel(model.id))).toBe('not_found');
  });
});

describe('images', () => {
  it('generates, polls, reads, upscales and deletes images; lists presets', async () => {
    const { client, emulator } = h;
    const presets = await client.listPresets();
    expect(presets.length).toBeGreaterThan(5);
    const preset = presets[0]!;
    expect(preset.tag).not.toBe('');

    const trigger = await client.submit({
      kind: 'image',
      body: {
        modelID: 'imagea',
        prompt: 'a red fox in snow',
        preset: preset.tag,
        numImages: 2,
        options: { imagea: { imageSize: '1K' } },
      },
    });
    expect(trigger.status.toLowerCase()).toBe('queued');
    expect(isJobTerminal((await client.getJob(trigger.jobId)).status)).toBe(false);
    emulator.control.advanceClock(MINUTE);
    const job = await client.getJob(trigger.jobId);
    expect(isJobSuccess(job.status)).toBe(true);
    expect(job.images).toHaveLength(2);

    const imageID = job.images![0]!.id;
    const image = await client.getImage(imageID);
    expect(image).toMatchObject({ id: imageID, type: 'output' });
    expect(image.url).toMatch(/^http:\/\/127\.0\.0\.1:/);

    const upscale = await client.submit({ kind: 'upscale', body: { imageID } });
    emulator.control.advanceClock(MINUTE);
    const upscaled = await client.getJob(upscale.jobId);
    expect(isJobSuccess(upscaled.status)).toBe(true);
    expect((await client.getImage(imageID)).upscaledImageID).toBe(upscaled.images![0]!.id);

    await expect(client.deleteImage(imageID)).resolves.toBeUndefined();
    expect(await codeOf(client.getImage(imageID))).toBe('not_found');
  });

  it('reads a failed job with its failure text', async () => {
    const trigger = await h.client.submit({ kind: 'image', body: { modelID: 'imageb', prompt: 'this will [fail]' } });
    h.emulator.control.advanceClock(MINUTE);
    const job = await h.client.getJob(trigger.jobId);
    expect(isJobTerminal(job.status) && !isJobSuccess(job.status)).toBe(true);
    expect(job.error).toBeTruthy();
  });
});

describe('videos', () => {
  it('generates videos, lists them across pages, reads one and prepares a download', async () => {
    const { client, emulator } = h;
    const triggers = [];
    for (let i = 0; i < 11; i++)
      triggers.push(
        await client.submit({
          kind: 'video',
          body: {
            modelID: 'videod-1.5',
            prompt: `waves ${i}`,
            options: { videod: { duration: 2 } },
          },
        }),
      );
    emulator.control.advanceClock(5 * MINUTE);
    const job = await client.getJob(triggers[0]!.jobId);
    expect(isJobSuccess(job.status)).toBe(true);
    const videoID = job.videos![0]!.id;
    expect((await client.getVideo(videoID)).id).toBe(videoID);

    emulator.control.resetStats();
    const pages = [];
    for await (const page of client.listVideos({ pageSize: 5, videoType: 'all' })) pages.push(page);
    expect(pages.map((p) => p.items.length)).toEqual([5, 5, 1]);
    expect(new Set(pages.flatMap((p) => p.items.map((v) => v.id))).size).toBe(11);
    expect(routeCount(emulator, 'GET /videos')).toBe(3);

    expect(typeof (await client.createVideoDownload(videoID))).toBe('string');
    const preparing = await client.getVideoDownload(videoID);
    expect(preparing.status).toBe('inprogress');
    expect(preparing.percentComplete).toBeGreaterThanOrEqual(0);
    emulator.control.advanceClock(MINUTE);
    const ready = await client.getVideoDownload(videoID);
    expect(ready.status).toBe('ready');
    expect(ready.url).toMatch(/^http/);

    // Approved public media downloads by its public media id.
    expect(typeof (await client.createVideoDownload('pm_aurora_timelapse'))).toBe('string');
  });
});

describe('jobs', () => {
  it('lists jobs across pageToken pages, with and without a range', async () => {
    const { client, emulator } = h;
    for (let i = 0; i < 52; i++)
      await client.submit({ kind: 'image', body: { modelID: 'imagea', prompt: `batch ${i}` } });
    emulator.control.resetStats();
    const all = await collectAll(client.listJobs());
    expect(all.length).toBeGreaterThanOrEqual(52 + 11 + 3);
    expect(new Set(all.map((j) => j.jobId)).size).toBe(all.length);
    const pagesAsked = routeCount(emulator, 'GET /jobs');
    expect(pagesAsked).toBeGreaterThanOrEqual(2);

    const now = emulator.control.now();
    const ranged = await collectAll(
      client.listJobs({ start: new Date(now - 2 * 60 * MINUTE), end: new Date(now + MINUTE) }),
    );
    expect(ranged.map((j) => j.jobId).sort()).toEqual(all.map((j) => j.jobId).sort());
    const fromStart = await collectAll(client.listJobs({ start: new Date(now - 2 * 60 * MINUTE) }));
    expect(fromStart.length).toBe(all.length);
    const summary = all.find((j) => j.jobId)!;
    expect(typeof summary.status).toBe('string');
  });

  it('refuses a range over 7 days or an end before start without asking the service', async () => {
    const { client, emulator } = h;
    emulator.control.resetStats();
    const nine = collectAll(client.listJobs({ start: '2025-01-01T00:00:00Z', end: '2025-01-10T00:00:00Z' }));
    await expect(nine).rejects.toMatchObject({ info: { code: 'invalid_argument', field: 'start' } });
    const backwards = client.listJobs({ start: '2025-01-02T00:00:00Z', end: '2025-01-01T00:00:00Z' }).next();
    await expect(backwards).rejects.toMatchObject({ info: { code: 'invalid_argument', field: 'end' } });
    expect(emulator.control.stats().total).toBe(0);
  });
});

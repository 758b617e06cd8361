// A downloaded PNG and JPEG carry the settings that made them (the request the app recorded),
// and their pixels are those the service sent: decoded with sharp, compared byte for byte.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../../../emulator/index.ts';
import { parseParameters, readXmp } from '../../../contract/generation-settings.ts';
import type { ImageRecord, Job } from '../../../contract/service.ts';
import type { AccountDb } from '../../db/account-db.ts';
import { assetFieldsFromImage } from '../../api/server-records.ts';
import { openMemoryCache } from '../../db/test-support/test-cache.ts';
import { readJpegXmp, readPngText } from './embed-settings.ts';
import { createLibrary, type Library } from '../library.ts';
import { emulatorLibraryClient } from '../test-support/emulator-client.ts';
import { emulatorCall } from '../test-support/emulator-media.ts';

let emulator: RunningEmulator;
let base: string;
let cache: AccountDb;
let library: Library;

beforeAll(async () => {
  emulator = await startEmulator({ seed: 33 });
  base = await mkdtemp(join(tmpdir(), 'atelier-embed-'));
  cache = openMemoryCache();
  library = createLibrary({
    db: cache.sqlite,
    client: emulatorLibraryClient(emulator.url),
    root: () => join(base, 'Library'),
    concurrency: () => 2,
    emitDownloads: () => undefined,
    emitAssets: () => undefined,
    logError: (message, error) => {
      throw new Error(`${message}: ${String(error)}`);
    },
    queue: { prepareIntervalMs: 20, retryDelayMs: () => 20 },
  });
  library.start();
});

afterAll(async () => {
  await library.stop();
  cache.close();
  await emulator.close();
  await rm(base, { recursive: true, force: true });
});

/** Generates one image with this request, records it as the app does, returns its id. */
async function generated(body: Record<string, unknown>): Promise<string> {
  const trigger = await emulatorCall<{ jobId: string }>(emulator, 'POST', '/images/generation', body);
  emulator.control.advanceClock(60 * 60_000);
  const job = await emulatorCall<Job>(emulator, 'GET', `/jobs/${trigger.jobId}`);
  const id = job.images?.[0]?.id ?? '';
  const record = await emulatorCall<ImageRecord>(emulator, 'GET', `/images/${id}`);
  cache.assets.upsertFromServer(assetFieldsFromImage(record), Date.now());
  cache.assets.recordGeneration('image', id, {
    jobId: trigger.jobId,
    prompt: typeof body['prompt'] === 'string' ? body['prompt'] : null,
    params: body,
  });
  return id;
}

async function downloaded(id: string): Promise<{ file: Buffer; sent: Buffer }> {
  library.download([{ kind: 'image', id }]);
  const start = Date.now();
  // The settings go in after the commit, before the thumbnail is made.
  while (cache.assets.get('image', id)?.thumb_path == null) {
    if (Date.now() - start > 15_000) throw new Error('download timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
  const row = cache.assets.get('image', id)!;
  const file = await readFile(join(base, 'Library', row.local_path ?? ''));
  const sent = Buffer.from(await (await fetch(row.url ?? '')).arrayBuffer());
  expect(row.bytes).toBe(file.length);
  return { file, sent };
}

const pixels = async (bytes: Buffer) => (await sharp(bytes).raw().toBuffer({ resolveWithObject: true })).data;

describe('a downloaded image carries its settings', () => {
  it('PNG: a `parameters` text chunk and the exact request; the same pixels as sent', async () => {
    const body = {
      modelID: 'imagec-2',
      prompt: 'a paper boat on a puddle',
      aspectRatio: '1:1',
      numImages: 1,
      options: { imagec: { outputFormat: 'png', quality: 'high', imageSize: '1K' } },
    };
    const { file, sent } = await downloaded(await generated(body));
    expect(file.subarray(1, 4).toString()).toBe('PNG');
    const texts = readPngText(file);
    expect(parseParameters(texts['parameters'] ?? '')).toMatchObject({ prompt: body.prompt, model: 'imagec-2' });
    expect(JSON.parse(texts['atelier'] ?? '')).toEqual(body);
    expect((await pixels(file)).equals(await pixels(sent))).toBe(true);
    expect(file.length).toBeGreaterThan(sent.length);
  });

  it('JPEG: an XMP segment with the prompt, parameters and request; the same pixels as sent', async () => {
    const body = {
      modelID: 'imagea',
      prompt: 'a fox in fresh snow',
      aspectRatio: '16:9',
      numImages: 1,
      options: { imagea: { imageSize: '1K' } },
    };
    const { file, sent } = await downloaded(await generated(body));
    expect(file[0]).toBe(0xff);
    const xmp = readXmp(readJpegXmp(file) ?? '');
    expect(xmp.request).toEqual(body);
    expect(parseParameters(xmp.parameters ?? '')).toMatchObject({ prompt: body.prompt, model: 'imagea' });
    expect((await sharp(file).metadata()).xmp?.toString()).toContain('a fox in fresh snow');
    expect((await pixels(file)).equals(await pixels(sent))).toBe(true);
  });
});

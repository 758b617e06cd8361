// The CLI as a subprocess against the emulator, command by command: models, uploads, training,
// generation with --wait/--download (JSON shapes), upscale, jobs, images, videos, presets, library.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountDatabasePath } from '../core/db/account-path.ts';
import { keyFingerprint } from '../core/secrets/fingerprint.ts';
import {
  createHarness,
  filesContaining,
  SENTINEL_KEY,
  requestCount,
  writePngs,
  type CliHarness,
} from './test-support/cli-harness.ts';

let h: CliHarness;

beforeAll(async () => {
  h = await createHarness();
});

afterAll(async () => {
  for (const text of h.outputs) expect(text).not.toContain(SENTINEL_KEY);
  expect(filesContaining(h.root, SENTINEL_KEY)).toEqual([]);
  await h.close();
});

/** Runs with --json and expects exit 0 and one JSON document. */
async function json<T>(args: string[], dataDir?: string): Promise<T> {
  const run = await h.run(['--json', ...args], { timeoutMs: 45_000, ...(dataDir ? { dataDir } : {}) });
  expect(run.code, `atelier ${args.join(' ')}\n${run.stderr}`).toBe(0);
  return JSON.parse(run.stdout) as T;
}

interface ModelDoc {
  id: string;
  label: string | null;
  status: string;
  uploads: { trainingImages: number };
}
interface JobDoc {
  jobId: string;
  localId: number;
  state: string;
  status: string;
  outputs: { kind: string; id: string; url: string; path: string | null }[];
}
interface AssetDoc {
  kind: string;
  id: string;
  type: string | null;
  path: string | null;
}

describe('models, uploads and training', () => {
  it('creates, lists, uploads to, trains (--wait) and deletes models', async () => {
    // The first run creates the data folder and its database alone.
    const listed = await json<ModelDoc[]>(['models', 'list']);
    const [mine, spare] = await Promise.all([
      json<ModelDoc>(['models', 'create', '--model-type', 'person', '--label', 'Me at the beach']),
      json<ModelDoc>(['models', 'create']),
    ]);
    expect(listed.map((m) => m.id)).toEqual(expect.arrayContaining(['free-general', 'general-portrait']));
    expect(mine).toMatchObject({ label: 'Me at the beach', status: 'new' });

    const photos = await writePngs(join(h.dataDir, '..', 'photos'), 12);
    const uploaded = await json<{ uploads: { imageId: string; state: string }[] }>([
      'upload',
      '--model',
      mine.id,
      '--type',
      'modelInput',
      ...photos,
    ]);
    expect(uploaded.uploads).toHaveLength(12);
    expect(uploaded.uploads.every((u) => u.state === 'succeeded' && u.imageId)).toBe(true);

    const [inputs, started, deleted] = await Promise.all([
      json<{ images: AssetDoc[] }>(['models', 'images', mine.id, '--type', 'input']),
      json<{ state: string }>(['models', 'train', mine.id]),
      json<{ deleted: boolean }>(['models', 'delete', spare.id]),
    ]);
    expect(inputs.images).toHaveLength(12);
    expect(inputs.images.every((image) => image.type === 'modelInput')).toBe(true);
    expect(started.state).toBe('training');
    expect(deleted.deleted).toBe(true);
    expect((await h.run(['models', 'get', spare.id])).code).toBe(3);

    // Training ends on the service; the engine's next check is 5 minutes away. Bring that check
    // forward in the app's own schedule (as if the minutes had passed) instead of sleeping.
    h.emulator.control.advanceClock(30 * 60_000);
    const db = new Database(
      accountDatabasePath(h.dataDir, { baseUrl: h.emulator.url, keyFingerprint: keyFingerprint(SENTINEL_KEY) }),
    );
    db.prepare('UPDATE models SET train_next_check_at = 0 WHERE id = ?').run(mine.id);
    db.close();
    const trained = await json<{ state: string; message: string }>(['models', 'train', mine.id, '--wait']);
    expect(trained.state).toBe('ready');
    expect((await json<ModelDoc>(['models', 'get', mine.id])).status).toBe('ready');
  }, 60_000);
});

describe('generation, jobs and media', () => {
  // Two chains side by side (their waits overlap): images, then videos.
  async function imageChain(): Promise<void> {
    const image = await json<JobDoc>([
      'generate',
      'image',
      '--model',
      'imagea',
      '--prompt',
      'a lighthouse at dusk',
      '--num-images',
      '2',
      '--option',
      'imageSize=2K',
      '--wait',
      '--download',
    ]);
    expect(image).toMatchObject({ state: 'succeeded', status: 'success', jobId: expect.stringMatching(/\S/) });
    expect(image.outputs).toHaveLength(2);
    for (const output of image.outputs) {
      expect(output).toMatchObject({ kind: 'image', id: expect.any(String), url: expect.stringContaining('/media/') });
      expect(output.path && existsSync(output.path)).toBe(true);
    }
    const [first, second] = image.outputs as [JobDoc['outputs'][number], JobDoc['outputs'][number]];
    const now = h.emulator.control.now();
    const [byJobId, history, upscaled, oneImage, search, offline] = await Promise.all([
      json<JobDoc>(['jobs', 'get', image.jobId]),
      json<{ jobs: { jobId: string; localId: number | null }[] }>([
        'jobs',
        'list',
        '--start',
        new Date(now - 3_600_000).toISOString(),
        '--end',
        new Date(now + 60_000).toISOString(),
      ]),
      json<JobDoc>(['upscale', first.id, '--wait']),
      json<{ id: string; path: string | null }>(['images', 'get', second.id]),
      json<{ items: AssetDoc[] }>(['library', 'search', 'lighthouse']),
      json<{ items: AssetDoc[] }>(['library', 'list', '--kind', 'image', '--offline']),
    ]);
    expect(byJobId.outputs.map((o) => o.path)).toEqual(image.outputs.map((o) => o.path));
    expect(history.jobs.find((job) => job.jobId === image.jobId)?.localId).toBe(image.localId);
    expect(upscaled).toMatchObject({ state: 'succeeded', outputs: [{ kind: 'image' }] });
    expect(oneImage).toMatchObject({ id: second.id, path: second.path });
    expect(search.items.map((a) => a.id)).toEqual(expect.arrayContaining([first.id, second.id]));
    expect(offline.items.map((a) => a.id)).toEqual(expect.arrayContaining([first.id, second.id]));
    expect(offline.items.every((a) => a.kind === 'image' && a.path)).toBe(true);

    expect((await json<{ deleted: boolean }>(['images', 'delete', second.id])).deleted).toBe(true);
    const gone = await h.run(['images', 'get', second.id]);
    expect(gone.code).toBe(3);
    expect(gone.stderr).toMatch(/^err: /m);
  }

  async function videoChain(): Promise<void> {
    // A data folder of its own: each CLI process runs the engine and the download queue, and two
    // processes must not download the same file into one library at once.
    const dir = h.fresh('video-data');
    const v = <T>(args: string[]) => json<T>(args, dir);
    const presets = await v<{ tag: string }[]>(['presets']);
    const video = await v<JobDoc>([
      'generate',
      'video',
      '--model',
      'videod-1.5',
      '--prompt',
      'slow waves',
      '--option',
      'duration=3',
      '--wait',
    ]);
    expect(presets.length).toBeGreaterThan(0);
    expect(video).toMatchObject({ state: 'succeeded', outputs: [{ kind: 'video' }] });
    const videoId = video.outputs[0]!.id;
    const [waited, videos, oneVideo] = await Promise.all([
      v<JobDoc>(['jobs', 'wait', String(video.localId), '--download']),
      v<{ videos: AssetDoc[] }>(['videos', 'list', '--type', 'text-to-video']),
      v<{ id: string }>(['videos', 'get', videoId]),
    ]);
    expect(waited.outputs[0]!.path).toMatch(/\.mp4$/);
    expect(videos.videos.map((item) => item.id)).toContain(videoId);
    expect(oneVideo.id).toBe(videoId);
    const downloaded = await v<{ path: string; libraryPath: string }>([
      'videos',
      'download',
      videoId,
      '--out',
      join(h.root, 'exported'),
    ]);
    expect(downloaded.libraryPath).toBe(waited.outputs[0]!.path);
    expect(existsSync(downloaded.path)).toBe(true);
  }

  it('generates with --wait --download, then reads, upscales, lists, downloads and deletes the results', async () => {
    await Promise.all([imageChain(), videoChain()]);
  }, 60_000);

  it('refuses a job range over 7 days locally (exit 2, nothing sent)', async () => {
    const before = requestCount(h.emulator);
    const run = await h.run(['jobs', 'list', '--start', '2025-01-01T00:00:00Z', '--end', '2025-01-09T00:00:00Z']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^end: .*7 days/m);
    expect(requestCount(h.emulator)).toBe(before);
  });
});

// Video generation, MP4/HLS outputs, video lists and the two-step download preparation.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from './index.ts';
import { Api, MINUTE, smallPng, startTestEmulator } from './test-support.ts';

interface JobInfo {
  jobId: string;
  status: string;
  videos?: { id: string; url: string }[];
  error?: string;
}
type VideoInfo = Record<string, unknown> & { id: string; url: string; type: string };
interface DownloadInfo {
  status: string;
  percentComplete: number;
  url?: string;
}

let emulator: RunningEmulator;
let api: Api;

beforeAll(async () => {
  ({ emulator, api } = await startTestEmulator());
});
beforeEach(() => emulator.control.reset());
afterAll(() => emulator.close());

async function videoJob(body: Record<string, unknown>): Promise<JobInfo> {
  const { jobId } = await api.ok<{ jobId: string }>('POST', '/videos/generation', body);
  emulator.control.advanceClock(5 * MINUTE);
  return api.ok<JobInfo>('GET', `/jobs/${jobId}`);
}

describe('POST /videos/generation', () => {
  it('takes a few virtual minutes, then yields videos', async () => {
    const { jobId } = await api.ok<{ jobId: string; status: string }>('POST', '/videos/generation', {
      modelID: 'videoa-3.1',
      prompt: 'waves at dusk',
      numVideos: 2,
    });
    emulator.control.advanceClock(60_000);
    expect((await api.ok<JobInfo>('GET', `/jobs/${jobId}`)).status).toBe('running');
    emulator.control.advanceClock(4 * MINUTE);
    const job = await api.ok<JobInfo>('GET', `/jobs/${jobId}`);
    expect(job.status).toBe('success');
    expect(job.videos).toHaveLength(2);
    const video = await api.ok<VideoInfo>('GET', `/videos/${job.videos?.[0]?.id}`);
    expect(video).toMatchObject({ jobId, modelID: 'videoa-3.1', type: 'text-to-video', url: job.videos?.[0]?.url });
    expect(Object.keys(video).sort()).toEqual(
      [
        'createdAt',
        'data',
        'folderID',
        'id',
        'jobId',
        'liked',
        'modelID',
        'publicMediaID',
        'type',
        'updatedAt',
        'url',
      ].sort(),
    );
  });

  it('answers every second job with an HLS playlist whose variants and segments are served', async () => {
    const first = await videoJob({ modelID: 'videod-1.5', prompt: 'one' });
    const second = await videoJob({ modelID: 'videod-1.5', prompt: 'two' });
    const mp4Url = first.videos?.[0]?.url ?? '';
    const hlsUrl = second.videos?.[0]?.url ?? '';
    expect(mp4Url).toMatch(/\.mp4$/);
    expect(hlsUrl).toMatch(/master\.m3u8$/);

    const mp4 = await fetch(mp4Url);
    expect(mp4.headers.get('content-type')).toBe('video/mp4');
    expect(
      Buffer.from(await mp4.arrayBuffer())
        .subarray(4, 8)
        .toString('latin1'),
    ).toBe('ftyp');

    const master = await (await fetch(hlsUrl)).text();
    expect(master.startsWith('#EXTM3U')).toBe(true);
    const variant = master.split('\n').find((l) => l.endsWith('.m3u8')) ?? '';
    const variantUrl = new URL(variant, hlsUrl).href;
    const playlist = await fetch(variantUrl);
    expect(playlist.headers.get('content-type')).toBe('application/vnd.apple.mpegurl');
    const text = await playlist.text();
    expect(text).toContain('#EXT-X-ENDLIST');
    const segment = text.split('\n').find((l) => l.endsWith('.ts')) ?? '';
    const seg = await fetch(new URL(segment, variantUrl));
    expect(seg.status).toBe(200);
    expect(new Uint8Array(await seg.arrayBuffer())[0]).toBe(0x47); // MPEG-TS sync byte
  });

  it('uses the portrait fixture for 9:16 and types image-to-video jobs', async () => {
    const job = await videoJob({
      modelID: 'videoa-3.1-fast',
      prompt: 'portrait',
      referenceImages: [{ url: 'https://example.com/a.png', role: 'first_frame' }],
      options: { videoa: { aspectRatio: '9:16' } },
    });
    const video = await api.ok<VideoInfo>('GET', `/videos/${job.videos?.[0]?.id}`);
    expect(video.type).toBe('image-to-video');
    expect(video.data).toMatchObject({ orientation: 'portrait' });
  });

  it('uses videoc aspectRatio for text-to-video only, ignoring it with reference images, videos or elements', async () => {
    await api.get('/models');
    const element = await api.upload('free-general', 'auxiliaryType', await smallPng());
    const portrait = { videoc: { aspectRatio: '9:16' } };
    const run = async (extra: Record<string, unknown>): Promise<Record<string, unknown>> => {
      const job = await videoJob({ modelID: 'videoc-video-standard', prompt: 'tall', options: portrait, ...extra });
      return (await api.ok<VideoInfo>('GET', `/videos/${job.videos?.[0]?.id}`)).data as Record<string, unknown>;
    };
    const textOnly = await run({});
    expect(textOnly).toMatchObject({ orientation: 'portrait', options: { aspectRatio: '9:16' } });
    const withInputs = [
      { referenceImages: [{ url: 'https://example.com/a.png', role: 'first_frame' }] },
      { referenceVideos: [{ url: 'https://example.com/a.mp4', role: 'reference_video' }] },
      { elementIDs: [element.body.result.id] },
    ];
    for (const extra of withInputs) {
      const data = await run(extra);
      expect(data.orientation, JSON.stringify(extra)).toBe('landscape');
      expect(data.options, JSON.stringify(extra)).not.toHaveProperty('aspectRatio');
    }
  });

  it('refuses invalid bodies and unknown elementIDs with 400 naming the field', async () => {
    const res = await api.post('/videos/generation', {
      modelID: 'videoa-3.1',
      prompt: 'x',
      options: { videoa: { duration: 5 } },
    });
    expect(res.http).toBe(400);
    expect(res.body.message).toMatch(/^options\.videoa\.duration: /);
    const missingPrompt = await api.post('/videos/generation', { modelID: 'videod-1.5' });
    expect(missingPrompt.body.message).toContain('prompt');
    const elements = await api.post('/videos/generation', {
      modelID: 'videoc-video-pro',
      prompt: 'x',
      elementIDs: ['img_nope'],
    });
    expect(elements.http).toBe(400);
    expect(elements.body.message).toMatch(/^elementIDs\[0\]: /);
  });

  it('fails a job whose prompt asks for it', async () => {
    const job = await videoJob({ modelID: 'videob-2.0', prompt: 'explode [fail]' });
    expect(job.status).toBe('failed');
    expect(job.error).toBeTruthy();
    expect(job).not.toHaveProperty('videos');
  });
});

describe('GET /videos', () => {
  it('lists only finished videos, newest first, in cursor pages, with the videoType filter', async () => {
    for (let i = 0; i < 5; i += 1) await videoJob({ modelID: 'videod-1.5', prompt: `text ${i}` });
    await videoJob({ modelID: 'videoc-motion-pro', prompt: 'dance' });
    await api.ok('POST', '/videos/generation', { modelID: 'videod-1.5', prompt: 'still running' });

    const ids: string[] = [];
    let cursor = '';
    for (let page = 1; ; page += 1) {
      const res = await api.get<VideoInfo[]>(`/videos?pageSize=4&cursor=${encodeURIComponent(cursor)}`);
      expect(res.body.page).toBe(page);
      ids.push(...res.body.result.map((v) => v.id));
      if (!res.body.hasMore) break;
      cursor = res.body.nextCursor ?? '';
    }
    expect(ids).toHaveLength(6);
    const all = await api.ok<VideoInfo[]>('GET', '/videos?videoType=all');
    expect(all.map((v) => v.id)).toEqual(ids);
    expect(Date.parse(all[0]?.createdAt as string)).toBeGreaterThanOrEqual(Date.parse(all[5]?.createdAt as string));
    const motion = await api.ok<VideoInfo[]>('GET', '/videos?videoType=motion-control');
    expect(motion.map((v) => v.type)).toEqual(['motion-control']);
    expect(await api.ok('GET', '/videos?videoType=nonsense')).toEqual([]);
  });

  it('refuses a cursor reused with another videoType or a forged one', async () => {
    for (let i = 0; i < 3; i += 1) await videoJob({ modelID: 'videod-1.5', prompt: `v${i}` });
    const first = await api.get<VideoInfo[]>('/videos?pageSize=1&videoType=text-to-video');
    const cursor = encodeURIComponent(first.body.nextCursor ?? '');
    expect((await api.get(`/videos?pageSize=1&videoType=text-to-video&cursor=${cursor}`)).http).toBe(200);
    const changed = await api.get(`/videos?pageSize=1&videoType=all&cursor=${cursor}`);
    expect(changed.http).toBe(400);
    expect(changed.body.message).toMatch(/^cursor: /);
    expect((await api.get('/videos?cursor=bm90LWEtY3Vyc29y')).http).toBe(400);
  });

  it('answers 404 for an unknown or foreign video', async () => {
    const job = await videoJob({ modelID: 'videod-1.5', prompt: 'mine' });
    expect((await api.get('/videos/vid_missing')).http).toBe(404);
    expect((await new Api(emulator.url, 'other-key').get(`/videos/${job.videos?.[0]?.id}`)).http).toBe(404);
  });
});

describe('video download preparation', () => {
  it('goes inprogress with rising percentComplete, then ready with an MP4 url', async () => {
    const job = await videoJob({ modelID: 'videod-1.5', prompt: 'keep me' });
    const id = job.videos?.[0]?.id ?? '';
    expect((await api.get(`/videos/${id}/download`)).http).toBe(404); // nothing requested yet
    expect(typeof (await api.ok('GET', `/videos/${id}/create-download`))).toBe('string');
    const first = await api.ok<DownloadInfo>('GET', `/videos/${id}/download`);
    expect(first).toEqual({ status: 'inprogress', percentComplete: 0 });
    emulator.control.advanceClock(2_000);
    const middle = await api.ok<DownloadInfo>('GET', `/videos/${id}/download`);
    expect(middle.status).toBe('inprogress');
    expect(middle.percentComplete).toBeGreaterThan(first.percentComplete);
    expect(middle.percentComplete).toBeLessThan(100);
    emulator.control.advanceClock(10_000);
    const ready = await api.ok<DownloadInfo>('GET', `/videos/${id}/download`);
    expect(ready).toMatchObject({ status: 'ready', percentComplete: 100 });
    const file = await fetch(ready.url ?? '');
    expect(file.headers.get('content-type')).toBe('video/mp4');
    expect(file.headers.get('content-disposition')).toContain(`${id}.mp4`);
    // Asking again once ready keeps it ready.
    await api.ok('GET', `/videos/${id}/create-download`);
    expect((await api.ok<DownloadInfo>('GET', `/videos/${id}/download`)).status).toBe('ready');
  });

  it('ends in error when the downloadFailure knob fires, and a new request starts over', async () => {
    const job = await videoJob({ modelID: 'videod-1.5', prompt: 'flaky' });
    const id = job.videos?.[0]?.id ?? '';
    emulator.control.setFaults({ downloadFailure: { count: 1 } });
    await api.ok('GET', `/videos/${id}/create-download`);
    emulator.control.advanceClock(15_000);
    const failed = await api.ok<DownloadInfo>('GET', `/videos/${id}/download`);
    expect(failed.status).toBe('error');
    expect(failed).not.toHaveProperty('url');
    await api.ok('GET', `/videos/${id}/create-download`);
    emulator.control.advanceClock(15_000);
    expect((await api.ok<DownloadInfo>('GET', `/videos/${id}/download`)).status).toBe('ready');
  });

  it('works for an approved public media video by its public media id, and not for unknown ids', async () => {
    await api.ok('GET', '/videos/pm_slow_waves/create-download');
    emulator.control.advanceClock(15_000);
    const ready = await api.ok<DownloadInfo>('GET', '/videos/pm_slow_waves/download');
    expect(ready.status).toBe('ready');
    expect((await fetch(ready.url ?? '')).status).toBe(200);
    expect((await api.get('/videos/pm_nope/create-download')).http).toBe(404);
    expect((await api.get('/videos/pm_slow_waves')).http).toBe(404); // public media is not the caller's video
  });
});

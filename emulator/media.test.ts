// Media routes: signed URLs, Range/416, If-Range, conditional GET, HEAD, and the deterministic blob.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from './index.ts';
import { parseRange } from './media/conditional-range.ts';
import { Api, MINUTE, startTestEmulator } from './test-support.ts';

let emulator: RunningEmulator;
let api: Api;
let imageUrl: string;
let full: Buffer;

beforeAll(async () => {
  ({ emulator, api } = await startTestEmulator());
  const { jobId } = await api.ok<{ jobId: string }>('POST', '/images/generation', {
    modelID: 'imagea',
    prompt: 'ranges',
  });
  emulator.control.advanceClock(MINUTE);
  imageUrl = (await api.ok<{ images: { url: string }[] }>('GET', `/jobs/${jobId}`)).images[0]?.url ?? '';
  full = Buffer.from(await (await fetch(imageUrl)).arrayBuffer());
});
afterAll(() => emulator.close());

const bytesOf = async (res: Response): Promise<Buffer> => Buffer.from(await res.arrayBuffer());

describe('signed media URLs', () => {
  it('serve without a bearer key', async () => {
    const res = await fetch(imageUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(Number(res.headers.get('content-length'))).toBe(full.length);
  });

  it('are readable cross-origin like a CDN, so hls.js can fetch playlists and segments', async () => {
    const res = await fetch(imageUrl, { headers: { Origin: 'http://127.0.0.1:1234' } });
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('answer 404 when the token is wrong', async () => {
    const forged = imageUrl.replace(/\/media\/[^/]+\//, '/media/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/');
    expect((await fetch(forged)).status).toBe(404);
  });
});

describe('Range', () => {
  it('answers 206 with Content-Range for a byte range', async () => {
    const res = await fetch(imageUrl, { headers: { range: 'bytes=10-19' } });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe(`bytes 10-19/${full.length}`);
    expect((await bytesOf(res)).equals(full.subarray(10, 20))).toBe(true);
  });

  it('supports open-ended and suffix ranges', async () => {
    const open = await fetch(imageUrl, { headers: { range: `bytes=${full.length - 5}-` } });
    expect((await bytesOf(open)).equals(full.subarray(full.length - 5))).toBe(true);
    const suffix = await fetch(imageUrl, { headers: { range: 'bytes=-7' } });
    expect(suffix.status).toBe(206);
    expect((await bytesOf(suffix)).equals(full.subarray(full.length - 7))).toBe(true);
  });

  it('answers 416 with bytes */size for a range past the end', async () => {
    const res = await fetch(imageUrl, { headers: { range: `bytes=${full.length}-` } });
    expect(res.status).toBe(416);
    expect(res.headers.get('content-range')).toBe(`bytes */${full.length}`);
  });

  it('ignores multi-range and malformed headers with a full 200', async () => {
    expect((await fetch(imageUrl, { headers: { range: 'bytes=0-1,5-6' } })).status).toBe(200);
    expect((await fetch(imageUrl, { headers: { range: 'items=0-1' } })).status).toBe(200);
  });

  it('parses ranges by the rules', () => {
    expect(parseRange('bytes=0-', 10)).toEqual({ start: 0, end: 9 });
    expect(parseRange('bytes=5-100', 10)).toEqual({ start: 5, end: 9 });
    expect(parseRange('bytes=-100', 10)).toEqual({ start: 0, end: 9 });
    expect(parseRange('bytes=-0', 10)).toBe('unsatisfiable');
    expect(parseRange('bytes=7-3', 10)).toBeUndefined();
  });
});

describe('validators', () => {
  it('honours If-Range with the current ETag (206) and ignores the range for a stale one (200)', async () => {
    const etag = (await fetch(imageUrl, { method: 'HEAD' })).headers.get('etag') ?? '';
    expect(etag).toMatch(/^"/);
    const fresh = await fetch(imageUrl, { headers: { range: 'bytes=0-9', 'if-range': etag } });
    expect(fresh.status).toBe(206);
    const stale = await fetch(imageUrl, { headers: { range: 'bytes=0-9', 'if-range': '"something-else"' } });
    expect(stale.status).toBe(200);
    expect((await bytesOf(stale)).length).toBe(full.length);
  });

  it('honours If-Range with the Last-Modified date', async () => {
    const lastModified = (await fetch(imageUrl, { method: 'HEAD' })).headers.get('last-modified') ?? '';
    expect((await fetch(imageUrl, { headers: { range: 'bytes=0-9', 'if-range': lastModified } })).status).toBe(206);
    const older = new Date(Date.parse(lastModified) - 60_000).toUTCString();
    expect((await fetch(imageUrl, { headers: { range: 'bytes=0-9', 'if-range': older } })).status).toBe(200);
  });

  it('answers 304 to If-None-Match and If-Modified-Since', async () => {
    const head = await fetch(imageUrl, { method: 'HEAD' });
    expect((await fetch(imageUrl, { headers: { 'if-none-match': head.headers.get('etag') ?? '' } })).status).toBe(304);
    expect(
      (await fetch(imageUrl, { headers: { 'if-modified-since': head.headers.get('last-modified') ?? '' } })).status,
    ).toBe(304);
    expect((await fetch(imageUrl, { headers: { 'if-none-match': '"other"' } })).status).toBe(200);
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const res = await fetch(imageUrl, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(Number(res.headers.get('content-length'))).toBe(full.length);
    expect((await bytesOf(res)).length).toBe(0);
    const ranged = await fetch(imageUrl, { method: 'HEAD', headers: { range: 'bytes=0-3' } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-length')).toBe('4');
  });
});

describe('/media/blob/{bytes}', () => {
  const size = 5 * 1024 * 1024 + 3;

  it('streams exactly the requested size, the same bytes for the same seed', async () => {
    const a = await bytesOf(await fetch(`${emulator.url}/media/blob/${size}?seed=alpha`));
    const b = await bytesOf(await fetch(`${emulator.url}/media/blob/${size}?seed=alpha`));
    const c = await bytesOf(await fetch(`${emulator.url}/media/blob/${size}?seed=beta`));
    expect(a.length).toBe(size);
    expect(createHash('sha256').update(a).digest('hex')).toBe(createHash('sha256').update(b).digest('hex'));
    expect(a.equals(c)).toBe(false);
    // Any range is the same slice of the whole, including unaligned offsets.
    const part = await fetch(`${emulator.url}/media/blob/${size}?seed=alpha`, {
      headers: { range: 'bytes=1000003-2000010' },
    });
    expect(part.status).toBe(206);
    expect((await bytesOf(part)).equals(a.subarray(1000003, 2000011))).toBe(true);
  });

  it('announces a huge size without producing it (HEAD) and refuses nonsense sizes', async () => {
    const head = await fetch(`${emulator.url}/media/blob/${2 ** 36}?seed=x`, { method: 'HEAD' });
    expect(head.headers.get('content-length')).toBe(String(2 ** 36));
    expect((await fetch(`${emulator.url}/media/blob/abc`)).status).toBe(400);
    expect((await fetch(`${emulator.url}/media/blob/0`)).status).toBe(200);
  });

  it('changes content and validators when blobs are rotated, so If-Range falls back to 200', async () => {
    const url = `${emulator.url}/media/blob/4096?seed=rot`;
    const before = await fetch(url);
    const etag = before.headers.get('etag') ?? '';
    const oldBytes = await bytesOf(before);
    emulator.control.rotateBlobs();
    const resumed = await fetch(url, { headers: { range: 'bytes=100-', 'if-range': etag } });
    expect(resumed.status).toBe(200);
    expect(resumed.headers.get('etag')).not.toBe(etag);
    expect((await bytesOf(resumed)).equals(oldBytes)).toBe(false);
  });
});

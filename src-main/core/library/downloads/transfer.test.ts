// Resumable transfers against the emulator's media routes and fault knobs: cuts, changed
// entities (If-Range), servers that ignore ranges, a full disk and dead links.
import { createHash } from 'node:crypto';
import { fsync } from 'node:fs';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../../../emulator/index.ts';
import { fetchMedia, type MediaFetch } from '../media/media-http.ts';
import { PartWriter } from './part-writer.ts';
import { blobUrl, expectedBlobSha256 } from '../test-support/blob.ts';
import { DownloadError } from './download-error.ts';
import { EARLY_SYNC_BYTES, nodePartFs, transferToPart, type PartFs, type TransferState } from './transfer.ts';

let emulator: RunningEmulator;
let dir: string;
/** The emulator's blob content generation (global; bumped by the If-Range test). */
let generation = 0;

beforeAll(async () => {
  emulator = await startEmulator({ seed: 7 });
});
afterAll(async () => {
  await emulator.close();
});
beforeEach(async () => {
  emulator.control.clearFaults();
  dir = await mkdtemp(join(tmpdir(), 'atelier-transfer-'));
  return () => rm(dir, { recursive: true, force: true });
});

const fresh = (): TransferState => ({ validator: null, totalBytes: null, contentType: null });
const sha = async (path: string) =>
  createHash('sha256')
    .update(await readFile(path))
    .digest('hex');

/** Records the headers of every request, optionally rewriting them. */
function recordingFetch(rewrite: (h: Record<string, string>) => Record<string, string> = (h) => h) {
  const sent: Record<string, string>[] = [];
  const fetch: MediaFetch = (url, headers, signal) => {
    const actual = rewrite(headers);
    sent.push(actual);
    return fetchMedia(url, actual, signal);
  };
  return { fetch, sent };
}

async function run(url: string, part: string, state: TransferState, extra: { fetch?: MediaFetch; fs?: PartFs } = {}) {
  let persisted = state;
  const result = await transferToPart({
    url,
    partPath: part,
    state,
    signal: new AbortController().signal,
    onStart: (s) => {
      persisted = { validator: s.validator, totalBytes: s.totalBytes, contentType: s.contentType };
    },
    ...extra,
  });
  return { result, persisted };
}

/**
 * Cuts the connection after `bytes` and returns what the first attempt persisted. A cut can land
 * before any byte reached the client (a reset drops data in flight on a busy machine); then the
 * cut is repeated, since a test of resuming needs a partial file.
 */
async function cutOnce(url: string, part: string, bytes: number): Promise<TransferState> {
  for (let attempt = 0; attempt < 5; attempt += 1) {
    emulator.control.setFaults({ rules: [{ path: '/media/*', cutMediaAfterBytes: { bytes, count: 1 } }] });
    let persisted = fresh();
    const error = await transferToPart({
      url,
      partPath: part,
      state: fresh(),
      signal: new AbortController().signal,
      onStart: (s) => {
        persisted = { validator: s.validator, totalBytes: s.totalBytes, contentType: s.contentType };
      },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DownloadError);
    expect((error as DownloadError).kind).toBe('failure');
    if ((await stat(part).catch(() => null))?.size) return persisted;
  }
  throw new Error('no byte arrived before the cut in 5 tries');
}

describe('transferToPart', () => {
  it('downloads a whole file with the right bytes and validators', async () => {
    const part = join(dir, 'a.part');
    const { result, persisted } = await run(blobUrl(emulator.url, 300_000, 'whole'), part, fresh());
    expect(result.bytes).toBe(300_000);
    expect(result.sha256).toBe(await expectedBlobSha256(300_000, 'whole', generation));
    expect(await sha(part)).toBe(result.sha256);
    expect(persisted.totalBytes).toBe(300_000);
    expect(persisted.validator?.etag).toMatch(/^"blob-/);
  });

  it('never sends the service key to the media host', async () => {
    emulator.control.resetStats();
    await run(blobUrl(emulator.url, 1000, 'nokey'), join(dir, 'k.part'), fresh());
    const stats = emulator.control.stats();
    expect(stats.total).toBe(1);
    expect(stats.byUser).toEqual({ anonymous: 1 });
  });

  it('resumes after a connection cut mid-body with Range and If-Range', async () => {
    const url = blobUrl(emulator.url, 400_000, 'cut');
    const part = join(dir, 'b.part');
    const state = await cutOnce(url, part, 150_000);
    const partial = (await stat(part)).size;
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThan(400_000);
    const { fetch, sent } = recordingFetch();
    const { result } = await run(url, part, state, { fetch });
    expect(sent[0]?.range).toBe(`bytes=${partial}-`);
    expect(sent[0]?.['if-range']).toBe(state.validator?.etag);
    expect(result.restarted).toBe(false);
    expect(result.fetchedBytes).toBe(400_000 - partial);
    expect(result.sha256).toBe(await expectedBlobSha256(400_000, 'cut', generation));
  });

  it('restarts cleanly when the entity changed (If-Range no longer holds → 200)', async () => {
    const url = blobUrl(emulator.url, 250_000, 'rotate');
    const part = join(dir, 'c.part');
    const state = await cutOnce(url, part, 100_000);
    generation = emulator.control.rotateBlobs();
    const { result, persisted } = await run(url, part, state);
    expect(result.restarted).toBe(true);
    expect(result.fetchedBytes).toBe(250_000);
    expect(persisted.validator?.etag).not.toBe(state.validator?.etag);
    expect(await sha(part)).toBe(await expectedBlobSha256(250_000, 'rotate', generation));
  });

  it('restarts cleanly when the server ignores the range and answers 200', async () => {
    const url = blobUrl(emulator.url, 200_000, 'norange');
    const part = join(dir, 'd.part');
    const state = await cutOnce(url, part, 60_000);
    const { fetch } = recordingFetch(() => ({}));
    const { result } = await run(url, part, state, { fetch });
    expect(result.restarted).toBe(true);
    expect(result.bytes).toBe(200_000);
    expect((await stat(part)).size).toBe(200_000);
    expect(await sha(part)).toBe(await expectedBlobSha256(200_000, 'norange', generation));
  });

  it('finishes without a body when the part is already complete (416)', async () => {
    const url = blobUrl(emulator.url, 50_000, 'done');
    const part = join(dir, 'e.part');
    const first = await run(url, part, fresh());
    const { result } = await run(url, part, first.persisted);
    expect(result.fetchedBytes).toBe(0);
    expect(result.sha256).toBe(first.result.sha256);
  });

  it('reports a full disk as disk_full and keeps the partial bytes for a later resume', async () => {
    const url = blobUrl(emulator.url, 300_000, 'full');
    const part = join(dir, 'f.part');
    let allowed = 120_000;
    const fullDisk: PartFs = {
      ...nodePartFs,
      writer(path, start) {
        const real = nodePartFs.writer(path, start);
        return new Writable({
          write(chunk: Buffer, _enc, done) {
            if (allowed <= 0) return done(Object.assign(new Error('no space left on device'), { code: 'ENOSPC' }));
            const piece = chunk.subarray(0, allowed);
            allowed -= piece.length;
            real.write(piece, (error) =>
              error
                ? done(error)
                : piece.length < chunk.length
                  ? done(Object.assign(new Error('ENOSPC'), { code: 'ENOSPC' }))
                  : done(),
            );
          },
          final(done) {
            real.end(done);
          },
          destroy(error, done) {
            real.end(() => done(error));
          },
        });
      },
    };
    let state = fresh();
    const error = await transferToPart({
      url,
      partPath: part,
      state,
      signal: new AbortController().signal,
      fs: fullDisk,
      onStart: (s) => {
        state = { validator: s.validator, totalBytes: s.totalBytes, contentType: s.contentType };
      },
    }).catch((e: unknown) => e);
    expect((error as DownloadError).kind).toBe('disk_full');
    const kept = (await stat(part)).size;
    expect(kept).toBe(120_000);
    const { result } = await run(url, part, state);
    expect(result.fetchedBytes).toBe(300_000 - kept);
    expect(result.sha256).toBe(await expectedBlobSha256(300_000, 'full', generation));
  });

  it('treats a dead link as a link error, not a retry', async () => {
    const part = join(dir, 'g.part');
    const error = await run(`${emulator.url}/media/not-a-token/image/nope.png`, part, fresh()).catch((e: unknown) => e);
    expect((error as DownloadError).kind).toBe('link');
    expect((error as DownloadError).httpStatus).toBe(404);
  });

  it('does not trust a partial file without a validator', async () => {
    const url = blobUrl(emulator.url, 10_000, 'novalidator');
    const part = join(dir, 'h.part');
    await writeFile(part, Buffer.alloc(4000, 1));
    const { result } = await run(url, part, fresh());
    expect(result.restarted).toBe(true);
    expect(await sha(part)).toBe(await expectedBlobSha256(10_000, 'novalidator', generation));
  });
});

describe('large files are written back while they arrive', () => {
  it('starts an fsync every EARLY_SYNC_BYTES and still syncs once after the last byte', async () => {
    const bytes = 2 * EARLY_SYNC_BYTES + 1_000_000;
    const synced: number[] = [];
    let received = 0;
    // The early syncs go through fs.fsync; the last is the end of the part's writer.
    const fs: PartFs = {
      ...nodePartFs,
      fsync: async (path) => {
        synced.push(received);
        await nodePartFs.fsync(path);
      },
      writer: (path, start) =>
        new PartWriter(path, start, {
          highWaterMark: 1024 * 1024,
          fsync: (fd, callback) => {
            synced.push(received);
            fsync(fd, callback);
          },
        }),
    };
    const part = join(dir, 'large.part');
    const result = await transferToPart({
      url: blobUrl(emulator.url, bytes, 'large'),
      partPath: part,
      state: fresh(),
      signal: new AbortController().signal,
      onStart: () => undefined,
      onProgress: (done) => void (received = done),
      fs,
    });
    expect(result.bytes).toBe(bytes);
    expect(result.sha256).toBe(await expectedBlobSha256(bytes, 'large', generation));
    // Two while arriving (at 32 MiB and 64 MiB), then the final one with every byte in.
    expect(synced).toHaveLength(3);
    // `received` is one chunk behind inside the call: about 32 MiB in, well before the end.
    expect(synced[0]).toBeGreaterThan(EARLY_SYNC_BYTES - 1024 * 1024);
    expect(synced[0]).toBeLessThan(bytes - EARLY_SYNC_BYTES);
    expect(synced.at(-1)).toBe(bytes);
  });
});

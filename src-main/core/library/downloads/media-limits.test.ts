// Limits on media answers, against a hostile media host on loopback: a declared length over the
// maximum, a body without a length that never ends, a drip of one byte every few seconds, and a
// transfer that outlives its deadline. Each ends with a clear error and frees its slot.
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DownloadError } from './download-error.ts';
import type { MediaLimits } from './media-limits.ts';
import { transferToPart, type TransferResult } from './transfer.ts';

let server: Server | undefined;
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'atelier-media-limits-'));
});
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
  await rm(dir, { recursive: true, force: true });
});

async function host(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  server = createServer(handler);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/media/file.mp4`;
}

async function transfer(url: string, limits: Partial<MediaLimits>): Promise<TransferResult | DownloadError> {
  return transferToPart({
    url,
    partPath: join(dir, 'file.mp4.part'),
    state: { validator: null, totalBytes: null, contentType: null },
    signal: new AbortController().signal,
    onStart: () => undefined,
    limits,
  }).catch((error: unknown) => {
    if (error instanceof DownloadError) return error;
    throw error;
  });
}

describe('media answer limits', () => {
  it('refuses a declared length over the maximum before writing anything', async () => {
    const url = await host((_req, res) => {
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(50 * 1024 * 1024 * 1024) });
      res.write(Buffer.alloc(1024));
    });
    const outcome = await transfer(url, { maxBytes: 1024 * 1024 });
    expect(outcome).toBeInstanceOf(DownloadError);
    expect(outcome).toMatchObject({ kind: 'fatal' });
    expect((outcome as DownloadError).message).toMatch(/50 GB.*more than the 1 MB/);
    const part = await stat(join(dir, 'file.mp4.part')).catch(() => null);
    expect(part?.size ?? 0).toBe(0);
  });

  it('stops a body without a length at the maximum (it would fill the disk)', async () => {
    let sent = 0;
    const url = await host((_req, res) => {
      res.writeHead(200, { 'content-type': 'video/mp4' });
      const chunk = Buffer.alloc(64 * 1024, 1);
      const pump = (): void => {
        while (!res.destroyed && sent < 512 * 1024 * 1024) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      pump();
    });
    const outcome = await transfer(url, { maxBytes: 2 * 1024 * 1024 });
    expect(outcome).toMatchObject({ kind: 'fatal' });
    expect((outcome as DownloadError).message).toMatch(/more than the 2 MB/);
    expect(sent).toBeLessThan(64 * 1024 * 1024);
    expect((await stat(join(dir, 'file.mp4.part'))).size).toBeLessThanOrEqual(2 * 1024 * 1024);
  });

  it('gives up on a drip (a byte now and then) after the stall window, without counting it as progress', async () => {
    const url = await host((_req, res) => {
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': '1000' });
      const timer = setInterval(() => res.write('x'), 100);
      res.on('close', () => clearInterval(timer));
    });
    const started = Date.now();
    const outcome = await transfer(url, { stallMs: 600, minBytesPerStall: 1024 });
    expect(outcome).toMatchObject({ kind: 'stalled' });
    expect((outcome as DownloadError).message).toMatch(/almost nothing/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('stops a transfer that outlives its deadline, keeping the part to resume', async () => {
    const url = await host((_req, res) => {
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(100 * 1024 * 1024), etag: '"v1"' });
      const timer = setInterval(() => res.write(Buffer.alloc(16 * 1024)), 20);
      res.on('close', () => clearInterval(timer));
    });
    const outcome = await transfer(url, { deadlineMs: 500, stallMs: 60_000 });
    expect(outcome).toMatchObject({ kind: 'failure' });
    expect((outcome as DownloadError).message).toMatch(/took longer than/);
    expect((await stat(join(dir, 'file.mp4.part'))).size).toBeGreaterThan(0);
  });
});

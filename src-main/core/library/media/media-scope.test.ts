// A media link from a remote service must not reach this machine's or its network's own services
// (a hostile service could make the app fetch from a local admin port into the library).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isLocalAddress, scopedMediaFetch } from './media-http.ts';

let server: Server;
let hits = 0;
let port = 0;
beforeEach(async () => {
  hits = 0;
  server = createServer((_req, res) => {
    hits += 1;
    res.writeHead(200, { 'content-type': 'image/png' });
    res.end('secret bytes of a local service');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterEach(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const signal = () => new AbortController().signal;

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof Error)) throw new Error('expected a refusal');
  return error.message;
}

describe('media hosts', () => {
  it('tells local and private addresses from public ones', () => {
    for (const ip of [
      '127.0.0.1',
      '127.8.9.1',
      '::1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      'fd00::1',
      'fe80::1',
      '::ffff:127.0.0.1',
      '0.0.0.0',
    ])
      expect(isLocalAddress(ip), ip).toBe(true);
    for (const ip of ['8.8.8.8', '172.32.0.1', '2001:4860:4860::8888', '100.64.0.1'])
      expect(isLocalAddress(ip), ip).toBe(false);
  });

  it('refuses a link to a loopback address or localhost when the service is remote, sending nothing', async () => {
    const fetch = scopedMediaFetch('https://api.example.com/v1');
    expect(await refusal(fetch(`http://127.0.0.1:${port}/admin`, {}, signal()))).toMatch(
      /local address.*service is not on this machine or network/,
    );
    expect(await refusal(fetch(`http://localhost:${port}/admin`, {}, signal()))).toMatch(/local address/);
    expect(await refusal(fetch(`http://[::1]:${port}/admin`, {}, signal()))).toMatch(/local address/);
    expect(hits).toBe(0);
  });

  it('allows other local hosts and ports when the service itself is local (the emulator, a dev server)', async () => {
    const fetch = scopedMediaFetch('http://127.0.0.1:9/');
    const response = await fetch(`http://localhost:${port}/media/a.png`, {}, signal());
    response.body.destroy();
    expect(response.status).toBe(200);
    expect(hits).toBe(1);
  });
});

describe('a refused media link in a transfer', () => {
  it('fails for good with the reason, not as a network error to retry', async () => {
    const { mkdtemp, rm } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { transferToPart } = await import('../downloads/transfer.ts');
    const { DownloadError } = await import('../downloads/download-error.ts');
    const dir = await mkdtemp(join(tmpdir(), 'atelier-scope-'));
    try {
      const error = await transferToPart({
        url: `http://127.0.0.1:${port}/admin`,
        partPath: join(dir, 'x.part'),
        state: { validator: null, totalBytes: null, contentType: null },
        signal: signal(),
        onStart: () => undefined,
        fetch: scopedMediaFetch('https://api.example.com'),
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DownloadError);
      expect(error).toMatchObject({ kind: 'fatal' });
      expect((error as Error).message).toMatch(/local address/);
      expect(hits).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

// The media client on node:http: what it sends (no key, identity encoding), redirects (followed
// with the same headers, at most 5), an abort, and its three limits (connect, the wait for the
// headers, an idle body).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { fetchMedia, fetchMediaWithin } from './media-http.ts';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

async function host(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  server = createServer(handler);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const text = async (body: NodeJS.ReadableStream): Promise<string> => {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString();
};

const signal = () => new AbortController().signal;

describe('fetchMedia', () => {
  it('sends the caller headers with its own, and answers any status without throwing', async () => {
    const seen: IncomingMessage['headers'][] = [];
    const base = await host((req, res) => {
      seen.push(req.headers);
      res.writeHead(req.url === '/gone' ? 410 : 206, { 'content-range': 'bytes 5-9/10', etag: '"e"' });
      res.end('56789');
    });
    const response = await fetchMedia(`${base}/a.png`, { range: 'bytes=5-', 'if-range': '"e"' }, signal());
    expect(response.status).toBe(206);
    expect(response.headers['content-range']).toBe('bytes 5-9/10');
    expect(await text(response.body)).toBe('56789');
    expect(seen[0]).toMatchObject({
      range: 'bytes=5-',
      'if-range': '"e"',
      'user-agent': 'Atelier',
      'accept-encoding': 'identity',
    });
    expect(seen[0]!.authorization).toBeUndefined();
    const gone = await fetchMedia(`${base}/gone`, {}, signal());
    gone.body.destroy();
    expect(gone.status).toBe(410);
  });

  it('follows redirects with the same headers, and gives up after 5', async () => {
    const ranges: (string | undefined)[] = [];
    const base = await host((req, res) => {
      ranges.push(req.headers.range);
      const hop = Number(/^\/hop\/(\d+)/.exec(req.url ?? '')?.[1] ?? -1);
      if (req.url === '/loop' || (hop >= 0 && hop < 2)) {
        res.writeHead(req.url === '/loop' ? 307 : 302, { location: req.url === '/loop' ? '/loop' : `/hop/${hop + 1}` });
        return void res.end();
      }
      res.end('there');
    });
    const response = await fetchMedia(`${base}/hop/0`, { range: 'bytes=0-' }, signal());
    expect(response.status).toBe(200);
    expect(await text(response.body)).toBe('there');
    expect(ranges).toEqual(['bytes=0-', 'bytes=0-', 'bytes=0-']);
    await expect(fetchMedia(`${base}/loop`, {}, signal())).rejects.toThrow(/Redirected 5 times/);
  });

  it('refuses a redirect to another scheme', async () => {
    const base = await host((_req, res) => {
      res.writeHead(302, { location: 'file:///etc/passwd' });
      res.end();
    });
    await expect(fetchMedia(`${base}/x`, {}, signal())).rejects.toThrow(/not an http\(s\) URL/);
  });

  it('stops waiting for headers that never come, and for a body that went idle', async () => {
    const base = await host((req, res) => {
      if (req.url === '/silent') return; // never answers
      res.writeHead(200, { 'content-length': '100' });
      res.write('a few bytes, then nothing');
    });
    const fetch = fetchMediaWithin({ connectMs: 1000, responseMs: 200, socketMs: 300 });
    await expect(fetch(`${base}/silent`, {}, signal())).rejects.toMatchObject({ code: 'ETIMEDOUT' });
    const response = await fetch(`${base}/idle`, {}, signal());
    await expect(text(response.body)).rejects.toMatchObject({ code: 'ETIMEDOUT' });
  });

  it('aborts the body with the signal', async () => {
    const base = await host((_req, res) => {
      res.writeHead(200, { 'content-length': '1000000' });
      res.write(Buffer.alloc(1000));
    });
    const controller = new AbortController();
    const response = await fetchMedia(`${base}/slow`, {}, controller.signal);
    const reading = text(response.body);
    controller.abort(new Error('stopped by the test'));
    await expect(reading).rejects.toThrow(/stopped by the test/);
    await expect(fetchMedia(`${base}/slow`, {}, controller.signal)).rejects.toThrow(/stopped by the test/);
  });
});

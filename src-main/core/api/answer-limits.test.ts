// The client against a hostile service on loopback: answers too large to hold (declared or not,
// compressed or not), a Retry-After meant to stop us for years, and the key echoed back in text
// the app would store and show.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../../contract/errors.ts';
import { silentLogger } from '../log/logger.ts';
import { createServiceClient, type ServiceClient } from './service-client.ts';

const KEY = 'sk-live-0123456789abcdef0123456789abcdef';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

let server: Server | undefined;
let client: ServiceClient | undefined;
afterEach(async () => {
  client?.close();
  client = undefined;
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

async function hostile(handler: Handler, options: { maxAnswerBytes?: number } = {}): Promise<ServiceClient> {
  server = createServer(handler);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  client = createServiceClient({
    baseUrl: `http://127.0.0.1:${port}`,
    getApiKey: () => KEY,
    logger: silentLogger(),
    retry: { maxAttempts: 1 },
    ...(options.maxAnswerBytes !== undefined ? { maxAnswerBytes: options.maxAnswerBytes } : {}),
  });
  return client;
}

async function failure(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  return error;
}

/** Streams `[{"id":"p0",...},…` for as long as the client reads; counts what was written. */
function endlessJson(sent: { bytes: number }, headers: Record<string, string> = {}): Handler {
  return (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', ...headers });
    res.write('{"status":"OK","result":[');
    const chunk = Buffer.from('{"id":"preset","name":"padding padding padding padding"},'.repeat(1024));
    const pump = (): void => {
      while (!res.destroyed && sent.bytes < 400 * 1024 * 1024) {
        sent.bytes += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      res.end(']}');
    };
    res.on('close', () => undefined);
    pump();
  };
}

describe('answer size limit', () => {
  it('stops reading an endless JSON answer at the limit, with a clear error', async () => {
    const sent = { bytes: 0 };
    const c = await hostile(endlessJson(sent), { maxAnswerBytes: 1024 * 1024 });
    const error = await failure(c.listPresets());
    expect(error.info.code).toBe('malformed_response');
    expect(error.message).toMatch(/larger than 1 MB/);
    // The connection was dropped early, not read to the end.
    expect(sent.bytes).toBeLessThan(64 * 1024 * 1024);
  });

  it('refuses a declared Content-Length over the limit before reading the body', async () => {
    const c = await hostile(
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(700 * 1024 * 1024) });
        res.write('{"status":"OK","result":[');
      },
      { maxAnswerBytes: 1024 * 1024 },
    );
    const error = await failure(c.listPresets());
    expect(error.info.code).toBe('malformed_response');
    expect(error.message).toMatch(/larger than 1 MB/);
  });

  it('counts a compressed answer as it unpacks (a small gzip that inflates past the limit)', async () => {
    const body = gzipSync(Buffer.from(`{"status":"OK","result":"${'a'.repeat(8 * 1024 * 1024)}"}`));
    expect(body.length).toBeLessThan(1024 * 1024);
    const c = await hostile(
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
        res.end(body);
      },
      { maxAnswerBytes: 1024 * 1024 },
    );
    const error = await failure(c.listPresets());
    expect(error.message).toMatch(/larger than 1 MB/);
  });

  it('has a default limit of 32 MB', async () => {
    const sent = { bytes: 0 };
    const c = await hostile(endlessJson(sent));
    const error = await failure(c.listPresets());
    expect(error.message).toMatch(/larger than 32 MB/);
    expect(sent.bytes).toBeLessThan(128 * 1024 * 1024);
  }, 30_000);
});

describe('Retry-After', () => {
  it('does not pass on a Retry-After of years (99999999 s): the caller backs off on its own', async () => {
    const c = await hostile((_req, res) => {
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '99999999' });
      res.end('{"status":"NOK","err":"too_many_requests","message":"slow down"}');
    });
    const error = await failure(c.listPresets());
    expect(error.info.code).toBe('rate_limited');
    expect(error.info.retryAfterMs).toBeUndefined();
    expect(error.message).not.toMatch(/99999999/);
  });

  it('still passes on a reasonable one', async () => {
    const c = await hostile((_req, res) => {
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '120' });
      res.end('{"status":"NOK","err":"too_many_requests"}');
    });
    const error = await failure(c.listPresets());
    expect(error.info.retryAfterMs).toBe(120_000);
  });
});

describe('the key echoed back by the service', () => {
  it('is redacted from records before anyone stores or shows them (a job error, a job list)', async () => {
    const c = await hostile((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const error = `Model failed: invalid header Authorization=${KEY} (key ${encodeURIComponent(KEY)})`;
      if (req.url?.startsWith('/jobs/')) {
        res.end(JSON.stringify({ status: 'OK', result: { jobId: 'j1', status: 'failed', error } }));
      } else {
        res.end(
          JSON.stringify({
            status: 'OK',
            result: { jobs: [{ jobId: 'j1', status: 'failed', errorMessage: error }], nextPageToken: '' },
          }),
        );
      }
    });
    const job = await c.getJob('j1');
    expect(job.error).toContain('[redacted]');
    expect(job.error).not.toContain(KEY);
    expect(job.error).not.toContain(encodeURIComponent(KEY));
    const pages = [];
    for await (const page of c.listJobs()) pages.push(page);
    expect(JSON.stringify(pages)).not.toContain(KEY);
    expect(JSON.stringify(pages)).toContain('[redacted]');
  });
});

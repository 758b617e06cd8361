// The API key never leaks: a sentinel key is used through successes and every kind of failure —
// including a hostile server that echoes it back in err, message, bodies and headers — and must not
// appear in any error message, stack, JSON or inspection, nor anywhere in the log files.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectAll } from './pagination.ts';
import { fixtureImage, startClientHarness, type ClientHarness } from './test-support/client-harness.ts';

const SENTINEL = 'sk-SENTINEL-7f3a9c1e5b2d4f60a8c7e9b1d3f5a7c9';
const UNKNOWN_SENTINEL = 'sk-SENTINEL-unknown-0c4e8a2f6b1d3e5f7a9c';

let h: ClientHarness;
let echo: Server;
let echoUrl: string;
const seenAuthorization: string[] = [];
const errors: unknown[] = [];

/** A hostile service: answers each route with the key it was sent, in a different place each time. */
function echoHandler(request: IncomingMessage, response: ServerResponse): void {
  const auth = request.headers.authorization ?? '';
  seenAuthorization.push(auth);
  const key = auth.replace(/^Bearer /, '');
  const path = (request.url ?? '').split('?')[0];
  const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
    response.writeHead(status, { 'content-type': 'application/json', ...headers });
    response.end(JSON.stringify(body));
  };
  switch (path) {
    case '/models':
      return json(400, {
        status: 'NOK',
        result: null,
        err: `bad_key_${key}`,
        message: `You sent Authorization: ${auth} and key ${key} (${encodeURIComponent(key)})`,
      });
    case '/presets':
      return json(200, { status: 'OK', result: `not a list but ${key}` });
    case '/jobs':
      return json(
        429,
        { status: 'NOK', result: null, err: 'rate_limited', message: `slow down ${key}` },
        { 'retry-after': '600' },
      );
    case '/videos':
      response.writeHead(502, { 'content-type': 'text/html' });
      return void response.end(`<html>Upstream saw ${auth}</html>`);
    case '/images/img_1':
      return json(200, { status: 'NOK', result: null, err: key, message: key });
    case '/models/m1':
      response.writeHead(302, { location: `https://elsewhere.example/?key=${key}` });
      return void response.end();
    default:
      response.writeHead(200, { 'content-type': 'application/json' });
      return void response.end(`{"status":"OK","result": ${key}`);
  }
}

beforeAll(async () => {
  // The logger is told no secrets: the client alone must keep the key out of what it logs.
  h = await startClientHarness({ emulator: { apiKeys: [SENTINEL] }, logSecrets: () => [] });
  echo = createServer(echoHandler);
  await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
  echoUrl = `http://127.0.0.1:${(echo.address() as { port: number }).port}`;
});
afterAll(async () => {
  await h.close();
  await new Promise<void>((resolve) => echo.close(() => resolve()));
});

async function collect(promise: Promise<unknown>): Promise<void> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error, 'the call was expected to fail').toBeInstanceOf(Error);
  errors.push(error);
}

function everyRendering(error: unknown): string[] {
  const e = error as Error & { info?: unknown };
  return [
    String(e),
    e.message,
    e.stack ?? '',
    JSON.stringify(e),
    JSON.stringify(e.info),
    inspect(e, { depth: Infinity, showHidden: true }),
  ];
}

describe('sentinel API key', () => {
  it('is sent, but kept out of errors and logs through successes and emulator faults', async () => {
    const { client, emulator } = h;
    const model = await client.createModel({ modelType: 'person' });
    await client.uploadImage({
      modelID: model.id,
      type: 'auxiliaryType',
      file: { name: 'a.png', bytes: await fixtureImage('png') },
    });
    await client.submit({ kind: 'image', body: { modelID: 'imagea', prompt: 'fox' } });

    emulator.control.setFaults({
      rules: [{ method: 'GET', path: '/presets', rateLimit: { count: 9, retryAfterSeconds: 600 } }],
    });
    await collect(client.listPresets());
    emulator.control.setFaults({ rules: [{ serverError: { count: 99 } }] });
    await collect(client.listModels());
    await collect(client.submit({ kind: 'image', body: { modelID: 'imagea', prompt: 'fox' } }));
    emulator.control.setFaults({ rules: [{ malformedJson: { count: 99 } }] });
    await collect(client.getModel(model.id));
    emulator.control.setFaults({ rules: [{ truncateBody: { count: 99 } }] });
    await collect(collectAll(client.listVideos()));
    emulator.control.setFaults({ rules: [{ dropConnection: { count: 99 } }] });
    await collect(
      client.uploadImage({
        modelID: model.id,
        type: 'auxiliaryType',
        file: { name: 'b.png', bytes: await fixtureImage('png', 2) },
      }),
    );
    emulator.control.setFaults({ rules: [{ latencyMs: 400 }] });
    await collect(
      h.makeClient({ apiKey: () => SENTINEL, timeouts: { responseMs: 50 }, retry: { maxAttempts: 1 } }).listPresets(),
    );
    emulator.control.clearFaults();

    await collect(h.makeClient({ apiKey: () => UNKNOWN_SENTINEL }).listModels());
    await collect(h.makeClient({ apiKey: () => SENTINEL, baseUrl: 'http://127.0.0.1:1' }).listModels());
    await collect(
      client.submit({
        kind: 'image',
        body: { modelID: 'imagea', prompt: 'x', aspectRatio: SENTINEL as never, numImages: 99 },
      }),
    );
  });

  it('is kept out of errors even when a hostile server echoes it back', async () => {
    const client = h.makeClient({ apiKey: () => SENTINEL, baseUrl: echoUrl });
    await collect(client.listModels()); // 400 NOK echoing the key in err and message, raw and encoded
    await collect(client.listPresets()); // OK envelope whose result has the wrong shape and holds the key
    await collect(collectAll(client.listJobs())); // 429 with a long Retry-After echoing the key
    await collect(collectAll(client.listVideos())); // 502 HTML page echoing the Authorization header
    await collect(client.getImage('img_1')); // NOK inside a 200 whose err and message are the key
    await collect(client.getModel('m1')); // a redirect whose Location carries the key
    await collect(client.getVideo('v1')); // an OK body cut short right after the key
    expect(seenAuthorization).toContain(`Bearer ${SENTINEL}`);
  });

  it('appears in no error rendering and in no log line', () => {
    expect(errors.length).toBe(17);
    for (const error of errors) {
      for (const text of everyRendering(error)) {
        expect(text).not.toContain('SENTINEL');
      }
    }
    const log = h.logText();
    expect(log.length).toBeGreaterThan(1000);
    expect(log).not.toContain('SENTINEL');
    expect(log).not.toMatch(/bearer\s+(?!\[redacted\])/i);
  });
});

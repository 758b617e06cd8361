// A malformed percent escape in a page URL is the client's mistake: 400, not a 500 from a throw.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { serveStatic } from './static-files.ts';

let dir: string;
let server: Server;
let base: string;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'atelier-static-'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html>');
  // As the browser-mode server calls it: an exception becomes a 500.
  server = createServer((req, res) => {
    try {
      if (!serveStatic(dir, new URL(req.url ?? '/', 'http://127.0.0.1').pathname, res)) {
        res.writeHead(404);
        res.end();
      }
    } catch {
      res.writeHead(500);
      res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

describe('static files', () => {
  it('answers a malformed % escape with 400', async () => {
    for (const path of ['/%', '/%E0%A4%A', '/assets/%zz.js', '/%C0%AF']) {
      const response = await fetch(`${base}${path}`);
      expect(response.status, path).toBe(400);
    }
  });

  it('still serves well-formed paths', async () => {
    expect((await fetch(`${base}/`)).status).toBe(200);
    expect((await fetch(`${base}/index%2Ehtml`)).status).toBe(200);
  });
});

// The media route serves the file it checked: a symlink swapped in between the check and the
// open (a file inside the library flipping to a link to a file outside) must never serve the
// outside file's bytes. Today's fix opens first and checks the opened file itself.
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { serveLocalMedia } from './media-serving.ts';

let base: string;
let root: string;
const SECRET = 'root:x:0:0:secret outside the library';

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'atelier-swap-'));
  root = join(base, 'Library');
  await mkdir(join(root, 'images'), { recursive: true });
  await writeFile(join(base, 'passwd'), SECRET);
  await writeFile(join(root, 'images', 'real.png'), 'real image bytes');
  await symlink(join(base, 'passwd'), join(root, 'images', 'evil.png'));
});
afterEach(() => rm(base, { recursive: true, force: true }));

async function read(body: Readable | null): Promise<string> {
  const chunks: Buffer[] = [];
  if (body) for await (const c of body) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString();
}

describe('serving from the opened file', () => {
  it('never serves the target of a symlink swapped in during the request', async () => {
    const target = join(root, 'images', 'a.png');
    await writeFile(target, 'real image bytes');
    // Another thread flips a.png between a real file and a link out of the library, as fast as it can.
    const stop = new Int32Array(new SharedArrayBuffer(4));
    const swapper = new Worker(
      `const { renameSync } = require('node:fs');
       const { workerData: { dir, stop } } = require('node:worker_threads');
       const flag = new Int32Array(stop);
       while (Atomics.load(flag, 0) === 0) {
         try { renameSync(dir + '/evil.png', dir + '/tmp.png'); renameSync(dir + '/a.png', dir + '/evil.png'); renameSync(dir + '/tmp.png', dir + '/a.png'); } catch {}
       }`,
      { eval: true, workerData: { dir: join(root, 'images'), stop: stop.buffer } },
    );
    let leaked = 0;
    let served = 0;
    try {
      for (let i = 0; i < 1500; i += 1) {
        const reply = await serveLocalMedia(root, { path: 'images/a.png' }).catch(() => null);
        if (!reply) continue;
        const body = await read(reply.body).catch(() => '');
        if (body.includes('root:x')) leaked += 1;
        if (reply.status === 200) served += 1;
      }
    } finally {
      Atomics.store(stop, 0, 1);
      await new Promise((resolve) => swapper.once('exit', resolve));
    }
    expect(leaked).toBe(0);
    expect(served).toBeGreaterThan(0); // the real file was still served in between
  }, 60_000);

  it('serves a file replaced by an atomic rename during the request (old or new bytes, never a 404)', async () => {
    const target = join(root, 'images', 'b.png');
    await writeFile(target, 'old bytes');
    // Another thread writes new versions beside it and renames them over it, as writing settings into a download does.
    const stop = new Int32Array(new SharedArrayBuffer(4));
    const writer = new Worker(
      `const { writeFileSync, renameSync } = require('node:fs');
       const { workerData: { dir, stop } } = require('node:worker_threads');
       const flag = new Int32Array(stop);
       let n = 0;
       while (Atomics.load(flag, 0) === 0) {
         n += 1;
         try { writeFileSync(dir + '/b.png.settings', 'new bytes ' + n); renameSync(dir + '/b.png.settings', dir + '/b.png'); } catch {}
         Atomics.wait(flag, 0, 0, 2); // a new version every few milliseconds
       }`,
      { eval: true, workerData: { dir: join(root, 'images'), stop: stop.buffer } },
    );
    const statuses = new Map<number, number>();
    try {
      for (let i = 0; i < 1500; i += 1) {
        const reply = await serveLocalMedia(root, { path: 'images/b.png' });
        statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
        const body = await read(reply.body);
        if (reply.status === 200) expect(body).toMatch(/^(old bytes|new bytes \d+)$/);
      }
    } finally {
      Atomics.store(stop, 0, 1);
      await new Promise((resolve) => writer.once('exit', resolve));
    }
    expect(Object.fromEntries(statuses)).toEqual({ 200: 1500 });
  }, 60_000);

  it('refuses a link out of the library that is there all along', async () => {
    const reply = await serveLocalMedia(root, { path: 'images/evil.png' });
    expect(reply.status).toBe(404);
    expect(await read(reply.body)).not.toContain('root:x');
  });
});

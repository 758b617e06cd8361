// The CLI never waits on a download that cannot happen: on a nearly full data folder (a faked
// statfs, test-support/fake-statfs.ts, loaded into the subprocess) `generate … --wait --download`
// and `watch` end with exit code 5 and a message naming the library folder and its free space, no
// stack trace, the databases whole, the download kept; the next run with room resumes it. An
// answer with no Content-Length that never ends stops at the disk check the same way. The bound on
// each run (60 s) is far past the command's own end (a few seconds): the old CLI waited for ever.
import { existsSync, readdirSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIN_FREE_BYTES } from '../core/library/downloads/download-space.ts';
import { EXIT } from './exit-codes.ts';
import { createHarness, filesContaining, SENTINEL_KEY, type CliHarness } from './test-support/cli-harness.ts';

const FAKE_STATFS = join(import.meta.dirname, 'test-support', 'fake-statfs.ts');
const RUN_BOUND_MS = 60_000;

let h: CliHarness;

beforeAll(async () => {
  h = await createHarness();
});

afterAll(async () => {
  for (const text of h.outputs) expect(text).not.toContain(SENTINEL_KEY);
  expect(filesContaining(h.root, SENTINEL_KEY)).toEqual([]);
  await h.close();
});

/** The environment of a run whose data folder's disk has `free` bytes left (less what it writes). */
const nearlyFull = (dataDir: string, free: number): Record<string, string> => ({
  NODE_OPTIONS: `--import=${FAKE_STATFS}`,
  ATELIER_FAKE_DISK_UNDER: dataDir,
  ATELIER_FAKE_DISK_FREE: String(free),
});

function databases(dataDir: string): string[] {
  const accounts = join(dataDir, 'accounts');
  return readdirSync(accounts).map((name) => join(accounts, name, 'atelier.db'));
}

function integrity(path: string): string {
  const db = new Database(path, { readonly: true });
  try {
    return (db.prepare('PRAGMA integrity_check').pluck().get() as string) ?? '';
  } finally {
    db.close();
  }
}

function downloadRows(dataDir: string): { state: string; error_code: string | null }[] {
  const [path] = databases(dataDir);
  const db = new Database(path!, { readonly: true });
  try {
    return db.prepare('SELECT state, error_code FROM downloads').all() as {
      state: string;
      error_code: string | null;
    }[];
  } finally {
    db.close();
  }
}

const STACK = /^\s+at .+\(.+:\d+:\d+\)$|^\s+at .+:\d+:\d+$/m;

describe('a nearly full data folder', () => {
  it('generate --wait --download ends with exit 5 naming the folder and its free space; watch too; the next run resumes', async () => {
    const dataDir = h.fresh('full');
    const library = join(dataDir, 'Library');
    const env = nearlyFull(dataDir, 10 * 1024 * 1024);
    const run = await h.run(
      ['--json', 'generate', 'image', '--model', 'imageb', '--prompt', 'a heron at dawn', '--wait', '--download'],
      { dataDir, env, timeoutMs: RUN_BOUND_MS },
    );
    expect(run.signal, `killed at the bound: the command waited\n${run.stderr}`).toBeNull();
    expect(run.code, run.stderr).toBe(EXIT.paused);
    expect(run.stderr).toContain(library);
    expect(run.stderr).toMatch(/has \d+ MB free; Atelier needs at least 64 MB free/);
    expect(run.stderr).toMatch(/resumes where it stopped on the next run/);
    expect(run.stderr).not.toMatch(STACK);
    const doc = JSON.parse(run.stdout) as { ok: boolean; error: { code: string; message: string } };
    expect(doc.error).toMatchObject({ code: 'disk_full' });
    // Nothing lost: the job is done, its download waits in the queue.
    expect(downloadRows(dataDir)).toEqual([expect.objectContaining({ state: 'queued' })]);
    for (const db of databases(dataDir)) expect(integrity(db)).toBe('ok');

    // watch on the same disk: the waiting download cannot move, so watch ends the same way.
    const watching = await h.run(['watch'], { dataDir, env, timeoutMs: RUN_BOUND_MS });
    expect(watching.signal, `killed at the bound: watch waited\n${watching.stderr}`).toBeNull();
    expect(watching.code, watching.stderr).toBe(EXIT.paused);
    expect(watching.stderr).toContain(library);
    expect(watching.stderr).not.toMatch(STACK);

    // Space freed: the next run picks the download up and finishes it.
    const jobId = /submitted image job (\S+)/.exec(run.stderr)?.[1];
    expect(jobId).toBeTruthy();
    const resumed = await h.run(['--json', 'jobs', 'wait', jobId!, '--download'], {
      dataDir,
      timeoutMs: RUN_BOUND_MS,
    });
    expect(resumed.code, resumed.stderr).toBe(0);
    const final = JSON.parse(resumed.stdout) as { state: string; outputs: { path: string | null }[] };
    expect(final.state).toBe('succeeded');
    expect(final.outputs[0]?.path).toBeTruthy();
    expect(existsSync(final.outputs[0]!.path!)).toBe(true);
    for (const db of databases(dataDir)) expect(integrity(db)).toBe('ok');
  }, 200_000);
});

describe('a media answer with no Content-Length that never ends', () => {
  let proxy: Server;
  let sent = 0;

  // In front of the emulator: the API as it is (its media links pointed here), every image an
  // endless body without a length or a validator.
  beforeAll(async () => {
    const upstream = new URL(h.emulator.url);
    proxy = createServer((req, res) => {
      if (req.method === 'GET' && /^\/media\/[^/]+\/image\//.test(req.url ?? '')) {
        res.writeHead(200, { 'content-type': 'image/png' });
        const chunk = Buffer.alloc(64 * 1024, 9);
        const pump = (): void => {
          // Far more than the disk has; a bound only so the old code's run ends at all.
          while (!res.destroyed && sent < 512 * 1024 * 1024) {
            sent += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          res.end();
        };
        return pump();
      }
      const forward = request(
        { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
        (answer) => {
          const parts: Buffer[] = [];
          answer.on('data', (part: Buffer) => parts.push(part));
          answer.on('end', () => {
            const body = Buffer.from(Buffer.concat(parts).toString('utf8').replaceAll(h.emulator.url, self()));
            const headers = { ...answer.headers, 'content-length': String(body.length) };
            delete headers['transfer-encoding'];
            res.writeHead(answer.statusCode ?? 502, headers);
            res.end(body);
          });
        },
      );
      req.pipe(forward);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  });
  const self = (): string => `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  afterAll(async () => {
    proxy.closeAllConnections();
    await new Promise<void>((resolve) => proxy.close(() => resolve()));
  });

  it('stops at the disk check: exit 5, the folder named, the databases whole, far less sent than the body', async () => {
    const dataDir = h.fresh('endless');
    const run = await h.run(
      ['--json', 'generate', 'image', '--model', 'imageb', '--prompt', 'an endless answer', '--wait', '--download'],
      {
        dataDir,
        env: { ...nearlyFull(dataDir, MIN_FREE_BYTES + 40 * 1024 * 1024), ATELIER_BASE_URL: self() },
        timeoutMs: RUN_BOUND_MS,
      },
    );
    expect(run.signal, `killed at the bound: the command waited\n${run.stderr}`).toBeNull();
    expect(run.code, run.stderr).toBe(EXIT.paused);
    expect(run.stderr).toContain(join(dataDir, 'Library'));
    expect(run.stderr).not.toMatch(STACK);
    expect(sent).toBeLessThan(200 * 1024 * 1024);
    expect(downloadRows(dataDir)).toEqual([expect.objectContaining({ state: 'queued', error_code: 'disk_full' })]);
    for (const db of databases(dataDir)) expect(integrity(db)).toBe('ok');
  }, 120_000);
});

// The `.part` writer: bytes at the right place (fresh or resumed), the fsync of its end on the
// same descriptor before 'finish', a failed fsync failing the write, and the descriptor closed.
import { fsync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PartWriter } from './part-writer.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'atelier-part-writer-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const chunks = (count: number, size: number): Buffer[] =>
  Array.from({ length: count }, (_, i) => Buffer.alloc(size, i % 251));

describe('PartWriter', () => {
  it('writes every chunk in order, gathering the ones that wait into one writev', async () => {
    const path = join(dir, 'a.part');
    const body = chunks(40, 64 * 1024);
    const writer = new PartWriter(path, 0, { highWaterMark: 1024 * 1024 });
    const writev = writer._writev.bind(writer);
    let gathered = 0;
    writer._writev = (list, callback) => {
      gathered = Math.max(gathered, list.length);
      writev(list, callback);
    };
    await pipeline(Readable.from(body), writer);
    expect(await readFile(path)).toEqual(Buffer.concat(body));
    expect(gathered).toBeGreaterThan(1);
  });

  it('keeps what is before `start` and writes from there (a resume)', async () => {
    const path = join(dir, 'b.part');
    await writeFile(path, Buffer.alloc(1000, 7));
    await pipeline(Readable.from([Buffer.alloc(500, 9)]), new PartWriter(path, 600, { highWaterMark: 1024 }));
    expect(await readFile(path)).toEqual(Buffer.concat([Buffer.alloc(600, 7), Buffer.alloc(500, 9)]));
  });

  it('truncates a file it writes from the start', async () => {
    const path = join(dir, 'c.part');
    await writeFile(path, Buffer.alloc(5000, 7));
    await pipeline(Readable.from([Buffer.alloc(100, 9)]), new PartWriter(path, 0, { highWaterMark: 1024 }));
    expect(await readFile(path)).toEqual(Buffer.alloc(100, 9));
  });

  it('fsyncs its descriptor after the last write and before it finishes', async () => {
    const path = join(dir, 'd.part');
    const events: string[] = [];
    const writer = new PartWriter(path, 0, {
      highWaterMark: 1024,
      fsync: (fd, callback) => {
        events.push(`fsync ${fd > 0}`);
        fsync(fd, callback);
      },
    });
    writer.on('finish', () => events.push('finish'));
    writer.on('close', () => events.push('close'));
    await pipeline(Readable.from(chunks(3, 4096)), writer);
    expect(events).toEqual(['fsync true', 'finish', 'close']);
    expect((await readFile(path)).length).toBe(3 * 4096);
  });

  it('fails the write when the fsync fails, and closes the descriptor all the same', async () => {
    const path = join(dir, 'e.part');
    let descriptor = -1;
    const writer = new PartWriter(path, 0, {
      highWaterMark: 1024,
      fsync: (fd, callback) => {
        descriptor = fd;
        callback(Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' }));
      },
    });
    const error = await pipeline(Readable.from([Buffer.alloc(10)]), writer).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'EIO' });
    // Closed: a closed descriptor cannot be synced.
    await expect(
      new Promise((resolve, reject) => fsync(descriptor, (e) => (e ? reject(e) : resolve(null)))),
    ).rejects.toMatchObject({ code: 'EBADF' });
  });
});

// Moving the library folder: everything copied and verified before the switch, the old files
// removed after it, refusals for unsafe targets, abort keeps the old folder whole, a rerun
// resumes, and a restart finishes an interrupted clean-up.
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LibraryMoveInfo } from '../../../contract/ipc/library.ts';
import { destinationProblem, finishInterruptedMove, MOVE_MARKER, moveLibrary } from './library-move.ts';
import { LIBRARY_MARKER } from './library-marker.ts';

let base: string;
let from: string;
let dataDir: string;

async function tree(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (d: string, prefix: string) => {
    for (const e of await readdir(d, { withFileTypes: true })) {
      if (e.isDirectory()) await walk(join(d, e.name), `${prefix}${e.name}/`);
      else
        out[`${prefix}${e.name}`] = createHash('sha256')
          .update(await readFile(join(d, e.name)))
          .digest('hex');
    }
  };
  await walk(dir, '');
  return out;
}

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'atelier-move-'));
  from = join(base, 'Library');
  dataDir = join(base, 'data');
  await mkdir(join(from, 'images'), { recursive: true });
  await mkdir(join(from, 'videos', 'v1.hls'), { recursive: true });
  await mkdir(join(from, '.thumbs'), { recursive: true });
  await mkdir(dataDir);
  for (let i = 0; i < 20; i += 1) await writeFile(join(from, 'images', `img_${i}.jpg`), Buffer.alloc(10_000 + i, i));
  await writeFile(join(from, 'videos', 'v1.hls', 'index.m3u8'), '#EXTM3U\n');
  await writeFile(join(from, 'videos', 'v1.hls', 'v00000.ts'), Buffer.alloc(50_000, 7));
  await writeFile(join(from, '.thumbs', 'img_0.webp'), 'webp');
});
afterEach(() => rm(base, { recursive: true, force: true }));

describe('moveLibrary', () => {
  it('copies, verifies, switches, then removes the old folder', async () => {
    const before = await tree(from);
    const to = join(base, 'New', 'Library');
    const progress: LibraryMoveInfo[] = [];
    let switchedWith: string | null = null;
    let treeAtSwitch: Record<string, string> = {};
    const result = await moveLibrary({
      from,
      to,
      dataDir,
      signal: new AbortController().signal,
      switchTo: async (target) => {
        switchedWith = target;
        treeAtSwitch = await tree(to);
        // The old copy is still complete when the app switches over.
        expect(await tree(from)).toEqual(before);
      },
      onProgress: (p) => progress.push(p),
    });
    expect(result.state).toBe('done');
    expect(switchedWith).toBe(to);
    // The new folder is marked as a library before the switch, so it can be pointed at again later.
    expect(treeAtSwitch).toEqual({
      ...before,
      [MOVE_MARKER]: expect.any(String),
      [LIBRARY_MARKER]: expect.any(String),
    });
    expect(await tree(to)).toEqual({ ...before, [LIBRARY_MARKER]: expect.any(String) });
    await expect(stat(from)).rejects.toThrow();
    expect(progress.map((p) => p.state)).toEqual(expect.arrayContaining(['copying', 'switching', 'cleaning', 'done']));
    expect(progress.at(-1)).toMatchObject({ filesDone: 23, filesTotal: 23 });
  });

  it("carries a service account's trash (.trash at the top) and leaves what is not Atelier's", async () => {
    await mkdir(join(from, '.trash', 'images'), { recursive: true });
    await writeFile(join(from, '.trash', 'images', 'img_t.jpg'), Buffer.alloc(3_000, 3));
    await writeFile(join(from, 'notes.txt'), 'mine');
    const to = join(base, 'New', 'Library');
    const result = await moveLibrary({
      from,
      to,
      dataDir,
      signal: new AbortController().signal,
      switchTo: () => undefined,
      onProgress: () => undefined,
    });
    expect(result.state).toBe('done');
    expect((await stat(join(to, '.trash', 'images', 'img_t.jpg'))).size).toBe(3_000);
    await expect(stat(join(to, 'notes.txt'))).rejects.toThrow();
  });

  it('refuses a target inside the library, around it, or not empty', async () => {
    const common = { from, dataDir, signal: new AbortController().signal, switchTo: () => undefined };
    await expect(moveLibrary({ ...common, to: join(from, 'sub') })).rejects.toThrow(/inside the current library/);
    await expect(moveLibrary({ ...common, to: base })).rejects.toThrow(/current library is inside/);
    await expect(moveLibrary({ ...common, to: from })).rejects.toThrow(/already the library/);
    const busy = join(base, 'Busy');
    await mkdir(busy);
    await writeFile(join(busy, 'mine.txt'), 'user file');
    await expect(moveLibrary({ ...common, to: busy })).rejects.toThrow(/not empty/);
  });

  it('says what is wrong with a destination it cannot create, and changes nothing', async () => {
    const before = await tree(from);
    await writeFile(join(base, 'a-file'), 'not a folder');
    const switched: string[] = [];
    const refusal = moveLibrary({
      from,
      dataDir,
      to: join(base, 'a-file', 'Library'),
      signal: new AbortController().signal,
      switchTo: (to) => void switched.push(to),
    });
    await expect(refusal).rejects.toMatchObject({
      info: { code: 'invalid_argument', field: 'to', message: expect.stringMatching(/is a file, not a folder/) },
    });
    expect(switched).toEqual([]);
    expect(await tree(from)).toEqual(before);
  });

  it('turns the file-system errors of a destination into advice', () => {
    const advice = (code: string) => destinationProblem(Object.assign(new Error(code), { code }))?.info;
    expect(advice('EACCES')).toMatchObject({ field: 'to', message: expect.stringMatching(/may not write/) });
    expect(advice('EPERM')?.message).toMatch(/permissions/);
    expect(advice('EROFS')?.message).toMatch(/read-only disk/);
    expect(advice('ENOENT')?.message).toMatch(/reconnect it/);
    expect(advice('ENOSPC')).toMatchObject({ code: 'disk_full' });
    expect(advice('EIO')).toBeUndefined();
  });

  it('leaves the old folder whole when aborted, and a rerun finishes the job', async () => {
    const before = await tree(from);
    const to = join(base, 'Elsewhere');
    const controller = new AbortController();
    let switched = false;
    const aborted = await moveLibrary({
      from,
      to,
      dataDir,
      signal: controller.signal,
      switchTo: () => {
        switched = true;
      },
      onProgress: (p) => {
        if (p.filesDone === 5) controller.abort();
      },
    });
    expect(aborted.state).toBe('aborted');
    expect(switched).toBe(false);
    expect(await tree(from)).toEqual(before);
    const done = await moveLibrary({
      from,
      to,
      dataDir,
      signal: new AbortController().signal,
      switchTo: () => undefined,
    });
    expect(done.state).toBe('done');
    expect(await tree(to)).toEqual({ ...before, [LIBRARY_MARKER]: expect.any(String) });
  });

  it('finishes the clean-up after a restart that interrupted it', async () => {
    const to = join(base, 'After');
    await expect(
      moveLibrary({
        from,
        to,
        dataDir,
        signal: new AbortController().signal,
        switchTo: () => {
          throw new Error('the app died right after switching');
        },
      }),
    ).rejects.toThrow(/died/);
    // The setting did change before the crash in this story; the journal says so.
    await finishInterruptedMove(dataDir, to);
    await expect(stat(from)).rejects.toThrow();
    await expect(stat(join(to, MOVE_MARKER))).rejects.toThrow();
    expect(Object.keys(await tree(to))).toHaveLength(24); // 23 files and the library marker
  });

  it('keeps the old files when the switch never happened', async () => {
    const before = await tree(from);
    await writeFile(
      join(dataDir, 'library-move.json'),
      JSON.stringify({ from, to: join(base, 'X'), phase: 'switched', files: Object.keys(before) }),
    );
    await finishInterruptedMove(dataDir, from);
    expect(await tree(from)).toEqual(before);
  });
});

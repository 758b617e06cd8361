// The check of downloaded files on disk, over more files than one batch: what is gone reads as
// remote again, what is there stays, and the check holds the event loop for one slice at most.
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AccountDb } from '../../db/account-db.ts';
import { LocalCopiesRepo } from '../../db/repos/local-copies-repo.ts';
import { openMemoryCache } from '../../db/test-support/test-cache.ts';
import { reconcileLocalFiles } from './local-files.ts';

let cache: AccountDb;
let copies: LocalCopiesRepo;
let base: string;
let root: string;

beforeEach(async () => {
  cache = openMemoryCache();
  copies = new LocalCopiesRepo(cache.sqlite, cache.assets);
  base = await mkdtemp(join(tmpdir(), 'atelier-local-files-'));
  root = join(base, 'Library');
  await mkdir(join(root, 'images'), { recursive: true });
});
afterEach(async () => {
  cache.close();
  await rm(base, { recursive: true, force: true });
});

/** `count` downloaded images; those for which `onDisk(i)` holds get a real file. */
async function downloaded(count: number, onDisk: (i: number) => boolean): Promise<void> {
  const insert = cache.sqlite.prepare(
    `INSERT INTO assets (kind, id, origin, type, url, created_at, local_created_at, file_state, local_path)
     VALUES ('image', @id, 'generated', 'output', 'https://media.example.test/x.jpg', @t, @t, 'downloaded', @path)`,
  );
  for (let i = 0; i < count; i += 1) {
    const path = `images/img-${i}.jpg`;
    insert.run({ id: `img-${i}`, t: 1_700_000_000_000 + i, path });
    if (onDisk(i)) await writeFile(join(root, path), 'x');
  }
}

const stateOf = (id: string) => cache.assets.get('image', id)?.file_state;

describe('reconcileLocalFiles', () => {
  it('marks the files gone (across batches) as remote, keeps the others, and names what changed', async () => {
    await downloaded(1_234, (i) => i % 3 !== 0);
    const lost = await reconcileLocalFiles(copies, cache.assets, root);
    const goneIds = Array.from({ length: 1_234 }, (_, i) => i)
      .filter((i) => i % 3 === 0)
      .map((i) => `img-${i}`);
    expect(lost.map((ref) => ref.id).sort()).toEqual(goneIds.sort());
    expect(lost.every((ref) => ref.kind === 'image')).toBe(true);
    expect(stateOf('img-0')).toBe('remote');
    expect(stateOf('img-1233')).toBe('remote');
    expect(stateOf('img-1')).toBe('downloaded');
    expect(stateOf('img-1232')).toBe('downloaded');
  });

  it('counts a link leading out of the library as gone', async () => {
    await downloaded(1, () => false);
    await writeFile(join(base, 'outside.jpg'), 'x');
    await symlink(join(base, 'outside.jpg'), join(root, 'images/img-0.jpg'));
    expect((await reconcileLocalFiles(copies, cache.assets, root)).map((r) => r.id)).toEqual(['img-0']);
  });

  it('lets other work run after every slice, within a batch too', async () => {
    const files = 120; // fewer than one batch: only the slices can let anything else run
    await downloaded(files, () => true);
    let turns = 0;
    let ticking = true;
    const tick = () => {
      turns += 1;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    // The check looks at its signal before each file: what the other work had done by then.
    const seen: number[] = [];
    const watching = {
      get aborted() {
        seen.push(turns);
        return false;
      },
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    } as unknown as AbortSignal;
    try {
      // Slices of 0 ms: a pause after every file, in which the other work gets a turn.
      expect(await reconcileLocalFiles(copies, cache.assets, root, { signal: watching, sliceMs: 0 })).toEqual([]);
      expect(new Set(seen).size).toBeGreaterThanOrEqual(files);
    } finally {
      ticking = false;
    }
  });

  it('lets other work run while it checks, and stops when asked', async () => {
    await downloaded(1_200, () => true);
    const controller = new AbortController();
    let turns = 0;
    const ticker = setInterval(() => {
      turns += 1;
      if (turns === 3) controller.abort();
    }, 0);
    try {
      const lost = await reconcileLocalFiles(copies, cache.assets, root, { signal: controller.signal });
      expect(lost).toEqual([]);
      expect(turns).toBeGreaterThanOrEqual(3);
    } finally {
      clearInterval(ticker);
    }
  });
});

// Path containment: hostile ids, absolute paths, `..` escapes and symlinks out of the root.
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../contract/errors.ts';
import { isWithin, resolveInLibrary, safeLibraryPath, safeNameForId } from './paths.ts';

let base: string;
let root: string;
beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'atelier-paths-'));
  root = join(base, 'Library');
  await mkdir(join(root, 'images'), { recursive: true });
});
afterEach(() => rm(base, { recursive: true, force: true }));

describe('safeNameForId', () => {
  it('keeps plain ids readable', () => {
    expect(safeNameForId('img_0001abc')).toBe('img_0001abc');
    expect(safeNameForId('v-1.2')).toBe('v-1.2');
  });

  it.each([
    '../../etc/passwd',
    '/etc/passwd',
    'C:\\Windows\\win.ini',
    '..',
    '.',
    '.hidden',
    'a/b',
    'a\0b',
    'é',
    '',
    'con',
    'NUL.txt',
    'a..b',
    'trailing.',
    'x'.repeat(200),
  ])('turns %j into a hashed name made only of safe characters', (id) => {
    const name = safeNameForId(id);
    expect(name).toMatch(/^id-[0-9a-f]{32}$/);
  });

  it('keeps ids that differ only by case apart on case-insensitive disks', () => {
    expect(safeNameForId('AbC').toLowerCase()).not.toBe(safeNameForId('abc').toLowerCase());
  });

  it('is stable', () => {
    expect(safeNameForId('../x')).toBe(safeNameForId('../x'));
  });
});

describe('resolveInLibrary', () => {
  it('resolves relative paths inside the root', () => {
    expect(resolveInLibrary(root, 'images/a.png')).toBe(join(root, 'images', 'a.png'));
  });

  it.each([
    '../outside.txt',
    '../../etc/passwd',
    '/etc/passwd',
    'images/../../x',
    'C:/x',
    '\\\\server\\share',
    '',
    'a\0b',
    '.',
  ])('refuses %j', (path) => {
    expect(() => resolveInLibrary(root, path)).toThrow(AppError);
  });

  it('knows a sibling folder with a common prefix is outside', () => {
    expect(isWithin(root, `${root}-evil/file`)).toBe(false);
    expect(isWithin(root, join(root, 'a', 'b'))).toBe(true);
  });
});

describe('safeLibraryPath', () => {
  it('refuses a symlink that points out of the root', async () => {
    await writeFile(join(base, 'secret.txt'), 'secret');
    await symlink(join(base, 'secret.txt'), join(root, 'images', 'link.png'));
    await expect(safeLibraryPath(root, 'images/link.png')).rejects.toThrow(AppError);
  });

  it('refuses a linked folder that leads out of the root, even for files not there yet', async () => {
    await mkdir(join(base, 'elsewhere'));
    await symlink(join(base, 'elsewhere'), join(root, 'videos'));
    await expect(safeLibraryPath(root, 'videos/new.mp4')).rejects.toThrow(AppError);
  });

  it('accepts a symlink that stays inside the root', async () => {
    await writeFile(join(root, 'images', 'a.png'), 'x');
    await symlink(join(root, 'images', 'a.png'), join(root, 'images', 'b.png'));
    await expect(safeLibraryPath(root, 'images/b.png')).resolves.toBe(join(root, 'images', 'b.png'));
  });
});

describe('safeLibraryPath before the library exists', () => {
  it('accepts paths under a root that is not created yet', async () => {
    const fresh = join(base, 'NotYet', 'Library');
    await expect(safeLibraryPath(fresh, 'images/a.png')).resolves.toBe(join(fresh, 'images', 'a.png'));
  });
});

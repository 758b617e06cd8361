// Download folders are created and checked once; a link leading out of the library is refused,
// for the folder and for the file inside it.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DownloadFolders, sizeInFolder } from './download-folders.ts';

let base: string;
let root: string;
let elsewhere: string;

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'atelier-folders-'));
  root = join(base, 'Library');
  elsewhere = join(base, 'elsewhere');
  await mkdir(root);
  await mkdir(elsewhere);
});
afterEach(() => rm(base, { recursive: true, force: true }));

describe('DownloadFolders', () => {
  it('creates a folder once and checks it again only after forget', async () => {
    const folders = new DownloadFolders();
    const dir = await folders.ensure(root, 'Demo/images');
    expect(dir).toBe(join(root, 'Demo', 'images'));
    expect(existsSync(dir)).toBe(true);
    await rm(dir, { recursive: true });
    expect(await folders.ensure(root, 'Demo/images')).toBe(dir);
    expect(existsSync(dir)).toBe(false);
    folders.forget(dir);
    await folders.ensure(root, 'Demo/images');
    expect(existsSync(dir)).toBe(true);
  });

  it('refuses a folder that is a link leading out of the library', async () => {
    await symlink(elsewhere, join(root, 'images'));
    await expect(new DownloadFolders().ensure(root, 'images')).rejects.toThrow(/outside the library/);
  });

  it('refuses paths escaping the root lexically', async () => {
    await expect(new DownloadFolders().ensure(root, '../elsewhere')).rejects.toThrow(/outside the library/);
  });
});

describe('sizeInFolder', () => {
  it('tells a missing file (-1) from an existing one', async () => {
    expect(await sizeInFolder(root, 'a.part')).toBe(-1);
    await writeFile(join(root, 'a.part'), 'hello');
    expect(await sizeInFolder(root, 'a.part')).toBe(5);
  });

  it('refuses a linked file, so nothing is written through it', async () => {
    await writeFile(join(elsewhere, 'secret'), 'keep');
    await symlink(join(elsewhere, 'secret'), join(root, 'a.part'));
    await expect(sizeInFolder(root, 'a.part')).rejects.toThrow(/linked file/);
  });
});

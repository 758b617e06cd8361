// The library folder changes only through a trusted path. A renderer cannot set it with
// settings:update; in the app a new folder must come from the main process's folder dialog; in
// browser mode an explicit folder must be empty or already an Atelier library (its marker file).
// A move carries only Atelier's own files and keeps their permissions; open-item stays inside.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../core.ts';
import type { HostInfo } from '../context.ts';
import { noDesktop } from '../host/desktop.ts';
import { LIBRARY_MARKER } from '../library/folder/library-marker.ts';
import { createMemoryStore } from '../settings/store.ts';

let base: string;
let core: Core;
let picked: string | null = null;
const opened: string[] = [];

const hostOf = (kind: HostInfo['kind']): HostInfo => ({
  kind,
  appVersion: '0.0.0-test',
  chromiumVersion: null,
  electronVersion: null,
});

async function start(kind: HostInfo['kind']): Promise<Core> {
  core = await createCore({
    dataDir: join(base, 'data'),
    host: hostOf(kind),
    store: createMemoryStore({ settings: { libraryDir: join(base, 'Library') } }),
    hostServices: {
      desktop: {
        ...noDesktop,
        pickFolder: async () => picked,
        openItem: async (path) => void opened.push(path),
      },
    },
  });
  return core;
}

const libraryDir = async (): Promise<string> => {
  const result = await core.dispatch('settings:get', undefined);
  return (result as { value: { libraryDir: string } }).value.libraryDir;
};

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'atelier-library-trust-'));
  picked = null;
  opened.length = 0;
});
afterEach(async () => {
  await core.close();
  rmSync(base, { recursive: true, force: true });
});

describe('the library folder from a renderer', () => {
  it('is not settable through settings:update', async () => {
    await start('browser');
    const result = await core.dispatch('settings:update', { libraryDir: '/' });
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid_argument', field: 'libraryDir' } });
    expect(await libraryDir()).toBe(join(base, 'Library'));
  });

  it('in browser mode, points only at an empty folder or an Atelier library (marker)', async () => {
    await start('browser');
    const foreign = join(base, 'home');
    mkdirSync(foreign);
    writeFileSync(join(foreign, '.bashrc'), 'secret');
    expect(await core.dispatch('library:use-folder', { to: foreign })).toMatchObject({
      ok: false,
      error: { code: 'invalid_argument', field: 'to' },
    });
    expect(await core.dispatch('library:use-folder', { to: '/' })).toMatchObject({ ok: false });
    expect(await libraryDir()).toBe(join(base, 'Library'));

    const copied = join(base, 'Copied library');
    mkdirSync(join(copied, 'images'), { recursive: true });
    writeFileSync(join(copied, LIBRARY_MARKER), '');
    expect(await core.dispatch('library:use-folder', { to: copied })).toMatchObject({ ok: true });
    expect(await libraryDir()).toBe(copied);
    const empty = join(base, 'Empty');
    expect(await core.dispatch('library:use-folder', { to: empty })).toMatchObject({ ok: true });
    expect(await libraryDir()).toBe(empty);
  });

  it('in the app, takes only a folder the main process’s dialog returned', async () => {
    await start('electron');
    const typed = join(base, 'Typed');
    expect(await core.dispatch('library:move', { to: typed })).toMatchObject({
      ok: false,
      error: { code: 'invalid_argument', field: 'to', message: expect.stringMatching(/Choose/) },
    });
    expect(await core.dispatch('library:use-folder', { to: typed })).toMatchObject({ ok: false });
    picked = join(base, 'Picked');
    expect(await core.dispatch('shell:pick-folder', { purpose: 'library-move' })).toMatchObject({
      value: { path: picked },
    });
    expect(await core.dispatch('library:move', { to: picked })).toMatchObject({ ok: true, value: { state: 'done' } });
    expect(await libraryDir()).toBe(picked);
    // Used once: the same folder again needs the dialog again.
    expect(await core.dispatch('library:use-folder', { to: picked })).toMatchObject({ ok: false });
  });
});

describe('moving the library', () => {
  it('carries only Atelier’s files and keeps their permissions', async () => {
    await start('browser');
    const from = join(base, 'Library');
    mkdirSync(join(from, 'images'), { recursive: true });
    mkdirSync(join(from, 'Demo', '.thumbs'), { recursive: true });
    writeFileSync(join(from, 'images', 'img_a.png'), 'png bytes');
    chmodSync(join(from, 'images', 'img_a.png'), 0o600);
    writeFileSync(join(from, 'Demo', '.thumbs', 'img_b.webp'), 'webp bytes');
    // What the user (or someone) put there is not the library's to carry.
    writeFileSync(join(from, 'notes.txt'), 'mine');
    mkdirSync(join(from, 'Projects'));
    writeFileSync(join(from, 'Projects', 'plan.md'), 'mine too');

    const to = join(base, 'Moved');
    expect(await core.dispatch('library:move', { to })).toMatchObject({ ok: true, value: { state: 'done' } });
    expect(statSync(join(to, 'images', 'img_a.png')).mode & 0o777).toBe(0o600);
    expect(existsSync(join(to, 'Demo', '.thumbs', 'img_b.webp'))).toBe(true);
    expect(readdirSync(to).sort()).toEqual([LIBRARY_MARKER, 'Demo', 'images'].sort());
    expect(existsSync(join(from, 'notes.txt'))).toBe(true);
    expect(existsSync(join(from, 'Projects', 'plan.md'))).toBe(true);
    expect(existsSync(join(from, 'images'))).toBe(false);
  });
});

describe('shell:open-item', () => {
  it('opens files inside the library only', async () => {
    await start('browser');
    mkdirSync(join(base, 'Library', 'images'), { recursive: true });
    writeFileSync(join(base, 'Library', 'images', 'img_a.png'), 'png');
    for (const path of ['/etc/passwd', '../data/settings.json', join(base, 'data'), join(base, 'Library')]) {
      expect(await core.dispatch('shell:open-item', { path })).toMatchObject({ ok: false });
    }
    expect(await core.dispatch('shell:open-item', { path: 'images/img_a.png' })).toMatchObject({ ok: true });
    expect(opened).toEqual([join(base, 'Library', 'images', 'img_a.png')]);
  });
});

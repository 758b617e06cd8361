import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createCore } from '../core.ts';
import type { DesktopIntegration } from '../host/desktop.ts';

const root = mkdtempSync(join(tmpdir(), 'atelier-shell-handlers-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Stands in for the OS: records what the core asked the desktop to do. */
function recordingDesktop() {
  const calls: string[] = [];
  const desktop: DesktopIntegration = {
    openFolder: async (path) => void calls.push(`folder ${path}`),
    showItemInFolder: (path) => void calls.push(`show ${path}`),
    openItem: async (path) => void calls.push(`open ${path}`),
    openExternal: async (url) => void calls.push(`external ${url}`),
    copyImage: async (path) => void calls.push(`copy ${path}`),
    startDrag: (path) => void calls.push(`drag ${path}`),
    pickFolder: async ({ title, defaultPath }) => {
      calls.push(`pick ${title} ${defaultPath}`);
      return title.startsWith('Move') ? '/picked/folder' : null;
    },
  };
  return { calls, desktop };
}

async function setup(desktop?: DesktopIntegration) {
  const dataDir = mkdtempSync(join(root, 'data-'));
  const core = await createCore({
    dataDir,
    host: { kind: 'electron', appVersion: '0.0.0', chromiumVersion: null, electronVersion: null },
    ...(desktop ? { hostServices: { desktop } } : {}),
  });
  const library = core.settings.get().libraryDir;
  mkdirSync(join(library, 'images'), { recursive: true });
  writeFileSync(join(library, 'images', 'a.png'), 'png');
  writeFileSync(join(dataDir, 'outside.txt'), 'x');
  symlinkSync(join(dataDir, 'outside.txt'), join(library, 'images', 'escape.png'));
  return { core, dataDir, library };
}

describe('shell:* handlers', () => {
  it('opens https links only', async () => {
    const { calls, desktop } = recordingDesktop();
    const { core } = await setup(desktop);
    expect(await core.dispatch('shell:open-external', { url: 'https://example.com/help' })).toEqual({
      ok: true,
      value: null,
    });
    const refused = await core.dispatch('shell:open-external', { url: 'file:///etc/passwd' });
    expect(refused).toMatchObject({ ok: false, error: { code: 'invalid_argument', field: 'url' } });
    expect((await core.dispatch('shell:open-external', { url: 'https://x.example', extra: 1 })).ok).toBe(false);
    expect(calls).toEqual(['external https://example.com/help']);
    await core.close();
  });

  it('shows library files (relative or absolute) and refuses anything outside the library', async () => {
    const { calls, desktop } = recordingDesktop();
    const { core, library, dataDir } = await setup(desktop);
    expect((await core.dispatch('shell:show-item-in-folder', { path: 'images/a.png' })).ok).toBe(true);
    expect((await core.dispatch('shell:show-item-in-folder', { path: join(library, 'images', 'a.png') })).ok).toBe(
      true,
    );
    for (const path of [
      '../outside.txt',
      join(dataDir, 'outside.txt'),
      'images/escape.png',
      '/etc/passwd',
      library,
      'images/\0a.png',
    ]) {
      const result = await core.dispatch('shell:show-item-in-folder', { path });
      expect(result, path).toMatchObject({ ok: false, error: { code: 'invalid_argument' } });
    }
    expect(await core.dispatch('shell:show-item-in-folder', { path: 'images/gone.png' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
    expect(calls).toEqual([`show ${join(library, 'images', 'a.png')}`, `show ${join(library, 'images', 'a.png')}`]);
    await core.close();
  });

  it('opens library files with the system app, with the same containment', async () => {
    const { calls, desktop } = recordingDesktop();
    const { core, library } = await setup(desktop);
    expect((await core.dispatch('shell:open-item', { path: 'images/a.png' })).ok).toBe(true);
    for (const path of ['../outside.txt', 'images/escape.png', '/etc/passwd']) {
      const result = await core.dispatch('shell:open-item', { path });
      expect(result, path).toMatchObject({ ok: false, error: { code: 'invalid_argument' } });
    }
    expect(calls).toEqual([`open ${join(library, 'images', 'a.png')}`]);
    await core.close();
  });

  it('copies a library image to the clipboard and drags a library file out, with the same containment', async () => {
    const { calls, desktop } = recordingDesktop();
    const { core, library } = await setup(desktop);
    expect((await core.dispatch('shell:copy-image', { path: 'images/a.png' })).ok).toBe(true);
    expect((await core.dispatch('shell:start-drag', { path: 'images/a.png' })).ok).toBe(true);
    for (const channel of ['shell:copy-image', 'shell:start-drag'] as const) {
      for (const path of ['../outside.txt', 'images/escape.png', '/etc/passwd']) {
        const result = await core.dispatch(channel, { path });
        expect(result, `${channel} ${path}`).toMatchObject({ ok: false, error: { code: 'invalid_argument' } });
      }
    }
    expect(calls).toEqual([`copy ${join(library, 'images', 'a.png')}`, `drag ${join(library, 'images', 'a.png')}`]);
    await core.close();
  });

  it('answers unsupported for the clipboard and drags where the host has no desktop (browser mode)', async () => {
    const { core } = await setup();
    expect(await core.dispatch('shell:copy-image', { path: 'images/a.png' })).toMatchObject({
      ok: false,
      error: { code: 'unsupported' },
    });
    await core.close();
  });

  it('shows a native context menu where the desktop has one and hands back the choice; bounded; unsupported elsewhere', async () => {
    const { desktop } = recordingDesktop();
    const shown: unknown[] = [];
    const { core } = await setup({
      ...desktop,
      popupMenu: async (items) => {
        shown.push(items);
        return 'favorite';
      },
    });
    const items = [
      { id: 'open', label: 'Open' },
      { separator: true },
      { label: 'Add to collection', submenu: [{ id: 'c:1', label: 'Coast' }] },
    ];
    expect(await core.dispatch('shell:context-menu', { items })).toEqual({ ok: true, value: { id: 'favorite' } });
    expect(shown).toEqual([items]);
    const deeper = [{ label: 'a', submenu: [{ label: 'b', submenu: [{ id: 'c', label: 'c' }] }] }];
    expect(await core.dispatch('shell:context-menu', { items: deeper })).toMatchObject({
      ok: false,
      error: { code: 'invalid_argument' },
    });
    const many = Array.from({ length: 61 }, (_, i) => ({ id: String(i), label: String(i) }));
    expect(await core.dispatch('shell:context-menu', { items: many })).toMatchObject({ ok: false });
    expect(shown).toHaveLength(1);
    await core.close();
    const bare = await setup(desktop);
    expect(await bare.core.dispatch('shell:context-menu', { items })).toMatchObject({
      ok: false,
      error: { code: 'unsupported' },
    });
    await bare.core.close();
  });

  it('opens the data and logs folders (creating the logs folder)', async () => {
    const { calls, desktop } = recordingDesktop();
    const { core, dataDir } = await setup(desktop);
    await core.dispatch('shell:open-data-folder', undefined);
    await core.dispatch('shell:open-logs-folder', undefined);
    expect(calls).toEqual([`folder ${dataDir}`, `folder ${join(dataDir, 'logs')}`]);
    await core.close();
  });

  it('answers unsupported where there is no desktop (browser mode, CLI)', async () => {
    const { core } = await setup();
    expect(await core.dispatch('shell:open-data-folder', undefined)).toMatchObject({
      ok: false,
      error: { code: 'unsupported' },
    });
    expect(await core.dispatch('shell:open-external', { url: 'https://example.com/' })).toMatchObject({
      ok: false,
      error: { code: 'unsupported' },
    });
    await core.close();
  });

  it('asks the desktop for a folder, starting beside the library; a cancel is null; browser mode has none', async () => {
    const { calls, desktop } = recordingDesktop();
    const { core, library } = await setup(desktop);
    expect(await core.dispatch('shell:pick-folder', { purpose: 'library-move' })).toEqual({
      ok: true,
      value: { path: '/picked/folder' },
    });
    expect(await core.dispatch('shell:pick-folder', { purpose: 'export' })).toEqual({
      ok: true,
      value: { path: null },
    });
    expect(calls).toEqual([
      `pick Move the library to… ${join(library, '..')}`,
      `pick Export to… ${join(library, '..')}`,
    ]);
    expect(await core.dispatch('shell:pick-folder', { purpose: 'elsewhere' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_argument' },
    });
    await core.close();
    const plain = await setup();
    expect(await plain.core.dispatch('shell:pick-folder', { purpose: 'export' })).toMatchObject({
      ok: false,
      error: { code: 'unsupported' },
    });
    await plain.core.close();
  });
});

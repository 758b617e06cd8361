import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../../contract/errors.ts';
import { PLACEHOLDER_BASE_URL } from '../../contract/ipc/settings.ts';
import { createSettings, defaultSettings, toSettingsInfo, type SettingsKey } from './settings.ts';
import { createJsonFileStore } from './json-file-store.ts';
import { createMemoryStore } from './store.ts';

const dirs: string[] = [];
const tempDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'atelier-settings-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const refusal = (action: () => unknown) => {
  try {
    action();
  } catch (error) {
    if (error instanceof AppError) return error.info;
    throw error;
  }
  throw new Error('expected a refusal');
};

describe('settings', () => {
  it('starts from defaults, with the library inside the data folder', () => {
    const settings = createSettings({ store: createMemoryStore(), dataDir: '/data/atelier' });
    expect(settings.get()).toEqual(defaultSettings('/data/atelier'));
    expect(settings.get().libraryDir).toBe(join('/data/atelier', 'Library'));
    expect(settings.get().baseUrl).toBe(PLACEHOLDER_BASE_URL);
    expect(settings.get().downloadConcurrency).toBe(3);
  });

  it('persists updates and normalises the base URL', () => {
    const dir = tempDir();
    const settings = createSettings({ store: createJsonFileStore(dir), dataDir: dir });
    settings.update({ baseUrl: ' https://media.example.com/v1/ ', downloadConcurrency: 8, theme: 'dark' });
    const reopened = createSettings({ store: createJsonFileStore(dir), dataDir: dir }).get();
    expect(reopened.baseUrl).toBe('https://media.example.com/v1');
    expect(reopened.downloadConcurrency).toBe(8);
    expect(reopened.theme).toBe('dark');
    // Only chosen values are written, so later default changes still reach this user.
    expect(JSON.parse(readFileSync(join(dir, 'settings.json'), 'utf8')).settings).not.toHaveProperty('autoDownload');
  });

  it.each([
    [{ downloadConcurrency: 0 }, 'downloadConcurrency', /between 1 and 8/],
    [{ downloadConcurrency: 2.5 }, 'downloadConcurrency', /whole number/],
    [{ downloadConcurrency: '3' }, 'downloadConcurrency', /number/],
    [{ theme: 'sepia' }, 'theme', /system, light or dark/],
    [{ baseUrl: 'http://media.example.com/v1' }, 'baseUrl', /https/],
    [{ baseUrl: 'not a url' }, 'baseUrl', /full URL/],
    [{ baseUrl: 'https://user:pw@media.example.com' }, 'baseUrl', /user name/],
    [{ libraryDir: 'relative/dir' }, 'libraryDir', /full path/],
    [{ autoDownload: 'yes' }, 'autoDownload', /true or false/],
    [{ colour: 'red' }, 'colour', /no setting/],
  ])('refuses %j naming the field', (patch, field, message) => {
    const settings = createSettings({ store: createMemoryStore(), dataDir: '/d' });
    const info = refusal(() => settings.update(patch as never));
    expect(info.code).toBe('invalid_argument');
    expect(info.field).toBe(field);
    expect(info.message).toMatch(message);
    expect(settings.get()).toEqual(defaultSettings('/d'));
  });

  it('writes nothing when one field of several is refused', () => {
    const store = createMemoryStore();
    const settings = createSettings({ store, dataDir: '/d' });
    const info = refusal(() => settings.update({ theme: 'dark', downloadConcurrency: 99, closeToTray: 'no' as never }));
    expect(info.fields?.map((f) => f.field)).toEqual(['downloadConcurrency', 'closeToTray']);
    expect(store.get('settings')).toBeUndefined();
  });

  it('accepts http only on loopback (a local emulator) and Windows library paths', () => {
    const settings = createSettings({ store: createMemoryStore(), dataDir: '/d' });
    expect(settings.update({ baseUrl: 'http://127.0.0.1:4010' }).baseUrl).toBe('http://127.0.0.1:4010');
    expect(settings.update({ libraryDir: 'D:\\Media\\Atelier' }).libraryDir).toBe('D:\\Media\\Atelier');
  });

  it('falls back to defaults for hand-edited nonsense without crashing, keeping unknown keys', () => {
    const dir = tempDir();
    const stored = { theme: 'neon', downloadConcurrency: 1000, autoDownload: false, windowState: 'big', future: 1 };
    writeFileSync(join(dir, 'settings.json'), JSON.stringify({ settings: stored }));
    const ignored: string[] = [];
    const settings = createSettings({
      store: createJsonFileStore(dir),
      dataDir: dir,
      onInvalidStored: (f) => ignored.push(f),
    });
    expect(settings.get().theme).toBe('system');
    expect(settings.get().downloadConcurrency).toBe(3);
    expect(settings.get().windowState).toBeNull();
    expect(settings.get().autoDownload).toBe(false);
    expect(ignored.sort()).toEqual(['downloadConcurrency', 'theme', 'windowState']);
    settings.update({ notifications: false });
    expect(JSON.parse(readFileSync(join(dir, 'settings.json'), 'utf8')).settings.future).toBe(1);
  });

  it.each(['{ "settings": { "theme": ', '[1,2', '"just a string"', 'null'])(
    'survives a settings file that is not a settings object: %s',
    (text) => {
      const dir = tempDir();
      writeFileSync(join(dir, 'settings.json'), text);
      const settings = createSettings({ store: createJsonFileStore(dir), dataDir: dir });
      expect(settings.get()).toEqual(defaultSettings(dir));
      expect(settings.update({ theme: 'light' }).theme).toBe('light');
    },
  );

  it('moves a file that is not JSON aside instead of losing it', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'settings.json'), '{ broken');
    createSettings({ store: createJsonFileStore(dir), dataDir: dir }).update({ theme: 'dark' });
    const aside = readdirSync(dir).filter((name) => name.startsWith('settings.corrupt-'));
    expect(aside).toHaveLength(1);
    expect(readFileSync(join(dir, aside[0]!), 'utf8')).toBe('{ broken');
  });

  it('says where it set an unreadable file aside, once', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'settings.json'), '{"settings": {"theme": "da');
    const told: string[] = [];
    const store = createJsonFileStore(dir, 'settings', { onSetAside: (path) => told.push(path) });
    const settings = createSettings({ store, dataDir: dir });
    expect(settings.get().theme).toBe('system');
    settings.update({ theme: 'dark' });
    expect(told).toHaveLength(1);
    expect(told[0]).toMatch(/settings\.corrupt-\d+\.json$/);
    expect(readFileSync(told[0]!, 'utf8')).toBe('{"settings": {"theme": "da');
    expect(createSettings({ store: createJsonFileStore(dir), dataDir: dir }).get().theme).toBe('dark');
  });

  it('tells listeners which fields changed, and only when something did', () => {
    const settings = createSettings({ store: createMemoryStore(), dataDir: '/d' });
    const calls: SettingsKey[][] = [];
    const stop = settings.onChange((_values, changed) => calls.push([...changed]));
    settings.update({ theme: 'system', autoDownload: true });
    settings.update({ theme: 'light', autoDownload: true, windowState: { width: 800, height: 600, maximized: false } });
    stop();
    settings.update({ theme: 'dark' });
    expect(calls).toEqual([['theme', 'windowState']]);
  });

  it('keeps a throwing listener from breaking the update', () => {
    const errors: unknown[] = [];
    const settings = createSettings({
      store: createMemoryStore(),
      dataDir: '/d',
      onListenerError: (e) => errors.push(e),
    });
    settings.onChange(() => {
      throw new Error('listener bug');
    });
    expect(settings.update({ theme: 'dark' }).theme).toBe('dark');
    expect(errors).toHaveLength(1);
  });

  it('gives callers copies, and the renderer no window geometry or mode', () => {
    const settings = createSettings({ store: createMemoryStore(), dataDir: '/d' });
    const values = settings.get();
    values.theme = 'dark';
    expect(settings.get().theme).toBe('system');
    const info = toSettingsInfo(settings.get());
    expect(info).not.toHaveProperty('windowState');
    expect(info).not.toHaveProperty('mode');
    expect(info).toHaveProperty('allowWeakKeyStorage', false);
  });

  it('keeps each account’s credit caps: whole positive numbers or off, a bad one refused with words, a hand-edited one ignored', () => {
    const dir = tempDir();
    const settings = createSettings({ store: createJsonFileStore(dir), dataDir: dir });
    expect(settings.get().creditCaps).toEqual({});
    settings.update({ creditCaps: { demo: { daily: 200, monthly: null } } });
    expect(createSettings({ store: createJsonFileStore(dir), dataDir: dir }).get().creditCaps).toEqual({
      demo: { daily: 200, monthly: null },
    });
    expect(refusal(() => settings.update({ creditCaps: { demo: { daily: 1.5, monthly: null } } }))).toMatchObject({
      code: 'invalid_argument',
      field: 'creditCaps',
      message: 'The daily cap must be a whole number of credits.',
    });
    expect(refusal(() => settings.update({ creditCaps: { demo: { daily: null, monthly: 0 } } }))).toMatchObject({
      message: 'The monthly cap must be at least 1 credit. Leave it empty to have no cap.',
    });
    expect(settings.get().creditCaps).toEqual({ demo: { daily: 200, monthly: null } });
    // Not the renderer's to see or change through settings:update.
    expect(toSettingsInfo(settings.get())).not.toHaveProperty('creditCaps');
    // A hand edit that breaks the rule falls back to no caps rather than crashing.
    const file = join(dir, 'settings.json');
    const stored = JSON.parse(readFileSync(file, 'utf8'));
    stored.settings.creditCaps = { demo: { daily: -4, monthly: 'lots' } };
    writeFileSync(file, JSON.stringify(stored));
    const ignored: string[] = [];
    const reread = createSettings({
      store: createJsonFileStore(dir),
      dataDir: dir,
      onInvalidStored: (f) => ignored.push(f),
    });
    expect(reread.get().creditCaps).toEqual({});
    expect(ignored).toEqual(['creditCaps']);
  });
});

import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Conf from 'conf';
import { afterEach, describe, expect, it } from 'vitest';
import { createJsonFileStore } from './json-file-store.ts';

const dirs: string[] = [];
const tempDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'atelier-json-store-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** The file as electron-store writes it in the app until now: electron-store is conf with these options. */
const confStore = (dir: string) =>
  new Conf<Record<string, unknown>>({
    cwd: dir,
    configName: 'settings',
    projectName: 'atelier',
    accessPropertiesByDotNotation: false,
    configFileMode: 0o600,
  });

const KEY_RECORD = {
  v: 1,
  storage: 'encrypted',
  backend: 'gnome_libsecret',
  data: 'c2VjcmV0',
  baseUrl: 'https://x.test',
};

describe('the settings file store', () => {
  it('reads a file conf/electron-store wrote, and conf reads what it writes, byte for byte the same format', () => {
    const dir = tempDir();
    const conf = confStore(dir);
    conf.set('settings', { theme: 'dark', 'a.b': 1 });
    conf.set('apiKey', KEY_RECORD);
    const store = createJsonFileStore(dir);
    expect(store.get('settings')).toEqual({ theme: 'dark', 'a.b': 1 });
    expect(store.get('apiKey')).toEqual(KEY_RECORD);
    const written = readFileSync(join(dir, 'settings.json'), 'utf8');

    store.set('settings', { theme: 'light' });
    store.set('settings', { theme: 'dark', 'a.b': 1 });
    expect(readFileSync(join(dir, 'settings.json'), 'utf8')).toBe(written);
    store.delete('apiKey');
    expect(confStore(dir).get('apiKey')).toBeUndefined();
    expect(confStore(dir).get('settings')).toEqual({ theme: 'dark', 'a.b': 1 });
  });

  it('reads the file on every get, so a write by another host is seen', () => {
    const dir = tempDir();
    const store = createJsonFileStore(dir);
    expect(store.get('settings')).toBeUndefined();
    createJsonFileStore(dir).set('settings', { theme: 'dark' });
    expect(store.get('settings')).toEqual({ theme: 'dark' });
  });

  it('creates the folder, writes owner-only, and leaves no temporary file behind', () => {
    const dir = join(tempDir(), 'new', 'data');
    const store = createJsonFileStore(dir);
    expect(existsSync(dir)).toBe(false);
    store.set('settings', { theme: 'dark' });
    chmodSync(join(dir, 'settings.json'), 0o644);
    store.set('settings', { theme: 'light' });
    expect(readdirSync(dir)).toEqual(['settings.json']);
    if (process.platform !== 'win32') expect(statSync(join(dir, 'settings.json')).mode & 0o777).toBe(0o600);
  });

  it('writes through a link at the settings path, keeping the link', () => {
    if (process.platform === 'win32') return;
    const dir = tempDir();
    const real = join(tempDir(), 'real.json');
    writeFileSync(real, '{}');
    symlinkSync(real, join(dir, 'settings.json'));
    createJsonFileStore(dir).set('mode', 'demo');
    expect(JSON.parse(readFileSync(real, 'utf8'))).toEqual({ mode: 'demo' });
    expect(createJsonFileStore(dir).get('mode')).toBe('demo');
  });

  it('sets aside a file that is not one JSON object, and starts empty', () => {
    for (const text of ['{ "settings": ', '[1, 2]', 'null', '"text"']) {
      const dir = tempDir();
      writeFileSync(join(dir, 'settings.json'), text);
      const told: string[] = [];
      const store = createJsonFileStore(dir, 'settings', { onSetAside: (path) => told.push(path) });
      expect(store.get('settings')).toBeUndefined();
      expect(told).toHaveLength(1);
      expect(readFileSync(told[0]!, 'utf8')).toBe(text);
    }
  });

  it('takes a file saved with a byte order mark', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'settings.json'), '\uFEFF{"mode": "demo"}');
    expect(createJsonFileStore(dir).get('mode')).toBe('demo');
  });

  it('refuses undefined and changes nothing', () => {
    const dir = tempDir();
    const store = createJsonFileStore(dir);
    store.set('mode', 'demo');
    expect(() => store.set('mode', undefined)).toThrow(/delete\(\)/);
    expect(store.get('mode')).toBe('demo');
  });
});

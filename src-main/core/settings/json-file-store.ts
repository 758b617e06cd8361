// The settings file `<dir>/<name>.json` as a KeyValueStore, with nothing but node:fs: every host
// (the app, browser mode, the CLI) opens it at start, so it must cost no more than reading the file.
// The format is conf's and electron-store's (one JSON object, tab-indented, keys literal), so a
// file either of them wrote reads back here and the other way round. Every read reads the file
// (another host may have written it); every write is atomic: a temporary sibling, fsynced, renamed
// over the file, the folder fsynced, so a crash leaves the old file or the new one, never half.
import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { recoverCorruptJsonStore, type CorruptFileOptions, type KeyValueStore } from './store.ts';

/** Owner-only: the file holds the (encrypted) key record. */
const FILE_MODE = 0o600;

type Values = Record<string, unknown>;

/** A file that is not JSON, or not one object, is a SyntaxError: the corrupt-file guard sets it aside. */
function parseValues(text: string, path: string): Values {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    // JSON.parse quotes the text around the fault; the file may hold the key record, so name only the file.
    throw new SyntaxError(`The settings file ${path} is not valid JSON.`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new SyntaxError(`The settings file ${path} does not hold a JSON object.`);
  return parsed as Values;
}

function readValues(path: string): Values {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw error;
  }
  return parseValues(text, path);
}

/** Flushes a rename to disk; Windows cannot open a folder for that (NTFS journals the rename). */
function fsyncFolder(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // see above
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Writes `path` through an fsynced temporary sibling renamed over it; a link at `path` is followed. */
function writeValues(path: string, values: Values): void {
  let target = path;
  try {
    target = realpathSync(path);
  } catch {
    // not there yet: written where asked
  }
  const dir = dirname(target);
  mkdirSync(dir, { recursive: true });
  const temporary = `${target}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  try {
    const fd = openSync(temporary, 'wx', FILE_MODE);
    try {
      writeSync(fd, JSON.stringify(values, undefined, '\t'));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, target);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
  fsyncFolder(dir);
}

/** `<dir>/<name>.json`, owner-only; a file that is not valid JSON is set aside (`onSetAside` told) and the store starts empty. */
export function createJsonFileStore(dir: string, name = 'settings', options: CorruptFileOptions = {}): KeyValueStore {
  const path = join(dir, `${name}.json`);
  const open = (): KeyValueStore => {
    readValues(path);
    return {
      get: (key) => readValues(path)[key],
      set: (key, value) => {
        // JSON has no undefined: the key would silently vanish on the next read.
        if (value === undefined) throw new TypeError(`Use delete() to clear the setting "${key}".`);
        const values = readValues(path);
        values[key] = value;
        writeValues(path, values);
      },
      delete: (key) => {
        const values = readValues(path);
        if (!Object.hasOwn(values, key)) return;
        delete values[key];
        writeValues(path, values);
      },
    };
  };
  return recoverCorruptJsonStore(dir, name, open, options);
}

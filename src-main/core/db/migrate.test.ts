import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../contract/errors.ts';
import { closeDatabase, openDatabase, SCHEMA_VERSION } from './database.ts';
import { checkMigrationList, readUserVersion, runMigrations, type Migration } from './migrate.ts';
import { MIGRATIONS } from './migrations/index.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'atelier-migrate-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const catchError = (fn: () => unknown): unknown => {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
};

describe('migration list', () => {
  it('counts 1, 2, 3 … in the shipped list', () => {
    expect(() => checkMigrationList(MIGRATIONS)).not.toThrow();
    expect(MIGRATIONS.map((m) => m.version)).toEqual(MIGRATIONS.map((_, i) => i + 1));
    expect(SCHEMA_VERSION).toBe(MIGRATIONS.length);
  });

  it('refuses gaps, repeats and disorder', () => {
    const step = (version: number): Migration => ({ version, name: `v${version}`, up: () => {} });
    expect(() => checkMigrationList([step(1), step(3)])).toThrow(/position 2 holds version 3/);
    expect(() => checkMigrationList([step(1), step(1)])).toThrow(/out of order/);
    expect(() => checkMigrationList([step(2), step(1)])).toThrow(/out of order/);
  });
});

describe('openDatabase', () => {
  it('creates a fresh database at the current schema with the expected pragmas', () => {
    const file = join(dir, 'nested', 'atelier.db');
    const db = openDatabase(file);
    expect(readUserVersion(db)).toBe(SCHEMA_VERSION);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('synchronous', { simple: true })).toBe(1); // NORMAL
    expect(db.pragma('busy_timeout', { simple: true })).toBe(5000);
    closeDatabase(db);
  });

  it('re-opens an up-to-date database without running anything again and keeps its data', () => {
    const file = join(dir, 'atelier.db');
    const first = openDatabase(file);
    first.prepare("INSERT INTO sync_state (key, value, updated_at) VALUES ('k', '1', 1)").run();
    closeDatabase(first);
    const again = openDatabase(file);
    expect(runMigrations(again, MIGRATIONS)).toEqual([]);
    expect(again.prepare("SELECT value FROM sync_state WHERE key = 'k'").get()).toEqual({ value: '1' });
    closeDatabase(again);
  });

  it('refuses a database written by a newer Atelier, with a clear message, and leaves it untouched', () => {
    const file = join(dir, 'future.db');
    const raw = new Database(file);
    raw.pragma(`user_version = ${SCHEMA_VERSION + 7}`);
    raw.close();
    const error = catchError(() => openDatabase(file));
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).info.code).toBe('unsupported');
    expect((error as AppError).info.message).toContain(
      `This library was written by a newer Atelier (schema ${SCHEMA_VERSION + 7}); update Atelier to open it`,
    );
    const check = new Database(file, { readonly: true });
    expect(check.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION + 7);
    expect(check.prepare("SELECT count(*) AS n FROM sqlite_schema WHERE type = 'table'").get()).toEqual({ n: 0 });
    check.close();
  });

  it('runs each step in one transaction: a failing step leaves the previous version intact', () => {
    const file = join(dir, 'partial.db');
    const failing: Migration[] = [
      ...MIGRATIONS,
      {
        version: MIGRATIONS.length + 1,
        name: 'broken',
        up(db) {
          db.exec('CREATE TABLE half_done (x INTEGER) STRICT');
          throw new Error('boom');
        },
      },
    ];
    expect(() => openDatabase(file, { migrations: failing })).toThrow('boom');
    const db = openDatabase(file);
    expect(readUserVersion(db)).toBe(SCHEMA_VERSION);
    expect(db.prepare("SELECT name FROM sqlite_schema WHERE name = 'half_done'").get()).toBeUndefined();
    closeDatabase(db);
  });

  it('names a damaged file instead of failing obscurely', () => {
    const file = join(dir, 'junk.db');
    writeFileSync(file, 'this is not a database, just some text that is long enough '.repeat(100));
    const error = catchError(() => openDatabase(file));
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).info.message).toContain('is damaged or is not a database');
  });

  it('opens read-only only at the current schema', () => {
    const file = join(dir, 'ro.db');
    closeDatabase(openDatabase(file));
    const ro = openDatabase(file, { readonly: true });
    expect(ro.readonly).toBe(true);
    expect(() => ro.prepare("INSERT INTO sync_state VALUES ('a', '1', 1)").run()).toThrow(/readonly/);
    closeDatabase(ro);

    const old = join(dir, 'old.db');
    new Database(old).close();
    const error = catchError(() => openDatabase(old, { readonly: true }));
    expect((error as AppError).info.code).toBe('unsupported');
    expect(() => openDatabase(join(dir, 'missing.db'), { readonly: true })).toThrow();
  });
});

describe('another process migrating the same file at the same time', () => {
  it('is noticed under the write lock: each step runs exactly once, nothing fails', () => {
    const file = join(dir, 'race.db');
    const first = new Database(file);
    const second = new Database(file);
    let interleaved = false;
    // `second` looks at user_version, and right after that `first` migrates the whole file,
    // as another process (the app and the CLI on one data folder) could.
    const racing = new Proxy(second, {
      get(target, property, receiver) {
        if (property !== 'pragma') return Reflect.get(target, property, receiver);
        return (source: string, options?: { simple?: boolean }) => {
          const answer = target.pragma(source, options);
          if (!interleaved && source === 'user_version') {
            interleaved = true;
            runMigrations(first, MIGRATIONS);
          }
          return answer;
        };
      },
    });
    try {
      expect(runMigrations(racing, MIGRATIONS)).toEqual([]);
      expect(interleaved).toBe(true);
      expect(readUserVersion(second)).toBe(SCHEMA_VERSION);
    } finally {
      first.close();
      second.close();
    }
  });
});

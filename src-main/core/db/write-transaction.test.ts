// Two connections to one WAL file stand for two processes sharing a data folder.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeTransaction } from './write-transaction.ts';

let dir: string;
let ours: Database.Database;
let theirs: Database.Database;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'atelier-tx-'));
  const file = join(dir, 'cache.sqlite');
  ours = new Database(file);
  ours.pragma('journal_mode = WAL');
  ours.exec('CREATE TABLE t (n INTEGER)');
  theirs = new Database(file);
  theirs.pragma('busy_timeout = 0');
});

afterEach(() => {
  ours.close();
  theirs.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Reads, lets the other process try to commit, then writes: the shape of enqueue or commit. */
function readThenWrite(): boolean {
  let theyCommitted = false;
  ours.prepare('SELECT count(*) FROM t').get();
  try {
    theirs.prepare('INSERT INTO t VALUES (2)').run();
    theyCommitted = true;
  } catch (error) {
    expect((error as { code?: string }).code).toBe('SQLITE_BUSY');
  }
  ours.prepare('INSERT INTO t VALUES (1)').run();
  return theyCommitted;
}

describe('writeTransaction', () => {
  it('holds the write lock from BEGIN, so a commit elsewhere cannot break its read-then-write', () => {
    const theyCommitted = writeTransaction(ours, readThenWrite);
    expect(theyCommitted).toBe(false);
    expect(ours.prepare('SELECT n FROM t').pluck().all()).toEqual([1]);
  });

  it('is needed: a deferred read-then-write fails with SQLITE_BUSY_SNAPSHOT when another commits first', () => {
    expect(() => ours.transaction(readThenWrite)()).toThrow(
      expect.objectContaining({ code: 'SQLITE_BUSY_SNAPSHOT' }) as Error,
    );
    expect(ours.prepare('SELECT n FROM t').pluck().all()).toEqual([2]);
  });

  it('rolls everything back on a throw', () => {
    expect(() =>
      writeTransaction(ours, () => {
        ours.prepare('INSERT INTO t VALUES (3)').run();
        throw new Error('stop');
      }),
    ).toThrow('stop');
    expect(ours.prepare('SELECT count(*) FROM t').pluck().get()).toBe(0);
  });
});

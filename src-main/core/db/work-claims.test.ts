// Workers on one database file (two connections stand for two processes): a claim is exclusive
// while its worker lives, and free again once the worker retires, dies or falls silent.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closeDatabase, openDatabase, type SqliteDatabase } from './database.ts';
import { STALE_AFTER_MS, WorkClaims, workClaimsOf } from './work-claims.ts';

let dir: string;
let handles: SqliteDatabase[];
let clock: number;
const alive = new Set<number>();

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'atelier-claims-'));
  handles = [];
  clock = Date.now();
  alive.clear();
});

afterEach(() => {
  handles.forEach((db) => db.close());
  rmSync(dir, { recursive: true, force: true });
});

/** A "process" with its own connection and pid on this host. */
function worker(pid: number): { db: SqliteDatabase; claims: WorkClaims } {
  const db = openDatabase(join(dir, 'atelier.sqlite'));
  handles.push(db);
  alive.add(pid);
  const claims = new WorkClaims(db, { pid, host: 'here', now: () => clock, isAlive: (p) => alive.has(p) });
  return { db, claims };
}

function addUpload(db: SqliteDatabase): number {
  return Number(
    db
      .prepare(
        "INSERT INTO uploads (model_id, type, source_path, file_name, state, created_at, updated_at) VALUES ('m', 'modelInput', '/x', 'x.jpg', 'queued', 1, 1)",
      )
      .run().lastInsertRowid,
  );
}

describe('WorkClaims', () => {
  it('gives a row to one worker at a time; the holder may claim it again', () => {
    const a = worker(101);
    const b = worker(102);
    const id = addUpload(a.db);
    expect(a.claims.claim('uploads', id)).toBe(true);
    expect(b.claims.claim('uploads', id)).toBe(false);
    expect(a.claims.claim('uploads', id)).toBe(true);
    a.claims.release('uploads', id);
    expect(b.claims.claim('uploads', id)).toBe(true);
  });

  it('frees every claim of a worker when its database closes', () => {
    const b = worker(102);
    const db = openDatabase(join(dir, 'atelier.sqlite'));
    const id = addUpload(db);
    expect(workClaimsOf(db).claim('uploads', id)).toBe(true);
    expect(b.claims.claim('uploads', id)).toBe(false);
    closeDatabase(db);
    expect(b.claims.claim('uploads', id)).toBe(true);
    expect(b.db.prepare('SELECT count(*) FROM workers').pluck().get()).toBe(1);
  });

  it('takes over from a worker whose process died on this host, at the next sweep', () => {
    const a = worker(101);
    const b = worker(102);
    const id = addUpload(a.db);
    a.claims.claim('uploads', id);
    alive.delete(101);
    expect(b.claims.claim('uploads', id)).toBe(false); // not yet swept
    expect(b.claims.sweep()).toBe(1);
    expect(b.claims.claim('uploads', id)).toBe(true);
  });

  it('takes over from a worker that fell silent (another host, or a reused pid)', () => {
    const a = worker(101);
    const b = worker(102);
    const id = addUpload(a.db);
    a.claims.claim('uploads', id);
    clock += STALE_AFTER_MS - 1;
    b.claims.beat();
    expect(b.claims.claim('uploads', id)).toBe(false);
    clock += 2;
    b.claims.beat();
    expect(b.claims.claim('uploads', id)).toBe(true);
  });

  it('a heartbeat keeps a live worker from being swept', () => {
    const a = worker(101);
    const b = worker(102);
    const id = addUpload(a.db);
    a.claims.claim('uploads', id);
    for (let i = 0; i < 10; i++) {
      clock += STALE_AFTER_MS / 2;
      a.claims.beat();
      b.claims.beat();
    }
    expect(b.claims.claim('uploads', id)).toBe(false);
  });
});

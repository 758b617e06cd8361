// Migration 15 adds ratings and flags: earlier rows are unrated and unflagged, the values are
// checked, the mark counts follow every insert, update and delete, and the indexes serve the
// rating sort and the flag filter.
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../database.ts';
import { runMigrations } from '../migrate.ts';
import { MIGRATIONS } from './index.ts';
import { migration0015 } from './0015-ratings-flags.ts';

const BEFORE = MIGRATIONS.filter((m) => m.version < 15);

function schema14() {
  const db = openDatabase(':memory:', { migrations: BEFORE });
  const insert = db.prepare(
    `INSERT INTO assets (kind, id, origin, file_state, prompt, created_at, local_created_at)
     VALUES (?, ?, ?, 'remote', ?, ?, ?)`,
  );
  insert.run('image', 'img_1', 'generated', 'a red fox', 1, 1);
  insert.run('image', 'img_2', 'generated', 'a blue whale', 2, 2);
  insert.run('video', 'vid_1', 'generated', 'waves', 3, 3);
  insert.run('image', 'img_3', 'uploaded', null, 4, 4);
  return db;
}

const counts = (db: ReturnType<typeof openDatabase>) =>
  db
    .prepare(
      `SELECT origin, kind, rating, flag, n FROM asset_mark_counts WHERE n > 0 ORDER BY origin, kind, rating, flag`,
    )
    .all();

const recount = (db: ReturnType<typeof openDatabase>) =>
  db
    .prepare(
      `SELECT origin, kind, rating, coalesce(flag, '') AS flag, count(*) AS n FROM assets
       WHERE rating > 0 OR flag IS NOT NULL GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`,
    )
    .all();

const plan = (db: ReturnType<typeof openDatabase>, query: string): string =>
  (db.prepare(`EXPLAIN QUERY PLAN ${query}`).all() as { detail: string }[]).map((row) => row.detail).join(' | ');

describe('migration 0015 ratings-flags', () => {
  it('adds unrated, unflagged marks and checks their values', () => {
    const db = schema14();
    expect(runMigrations(db, [...BEFORE, migration0015])).toEqual([15]);
    expect(db.prepare('SELECT count(*) FROM assets WHERE rating = 0 AND flag IS NULL').pluck().get()).toBe(4);
    expect(counts(db)).toEqual([]);
    expect(() => db.prepare("UPDATE assets SET rating = 6 WHERE id = 'img_1'").run()).toThrow(/CHECK/);
    expect(() => db.prepare("UPDATE assets SET rating = -1 WHERE id = 'img_1'").run()).toThrow(/CHECK/);
    expect(() => db.prepare("UPDATE assets SET flag = 'maybe' WHERE id = 'img_1'").run()).toThrow(/CHECK/);
    expect(() => db.prepare("UPDATE assets SET rating = NULL WHERE id = 'img_1'").run()).toThrow(/NOT NULL/);
    db.close();
  });

  it('keeps the mark counts in step with inserts, updates and deletes', () => {
    const db = schema14();
    runMigrations(db, [...BEFORE, migration0015]);
    db.prepare("UPDATE assets SET rating = 4 WHERE id IN ('img_1', 'img_2')").run();
    db.prepare("UPDATE assets SET flag = 'reject' WHERE id IN ('img_2', 'vid_1')").run();
    expect(counts(db)).toEqual(recount(db));
    expect(counts(db)).toEqual([
      { origin: 'generated', kind: 'image', rating: 4, flag: '', n: 1 },
      { origin: 'generated', kind: 'image', rating: 4, flag: 'reject', n: 1 },
      { origin: 'generated', kind: 'video', rating: 0, flag: 'reject', n: 1 },
    ]);
    db.prepare("UPDATE assets SET rating = 0, flag = NULL WHERE id = 'img_2'").run();
    db.prepare("UPDATE assets SET flag = 'pick' WHERE id = 'img_3'").run();
    db.prepare("DELETE FROM assets WHERE id = 'img_1'").run();
    db.prepare(
      `INSERT INTO assets (kind, id, origin, rating, flag, created_at, local_created_at)
       VALUES ('image', 'img_9', 'generated', 5, 'pick', 9, 9), ('image', 'img_10', 'generated', 0, NULL, 10, 10)`,
    ).run();
    // An update of other columns moves nothing.
    db.prepare("UPDATE assets SET favorite = 1, file_state = 'downloaded' WHERE id = 'img_9'").run();
    expect(counts(db)).toEqual(recount(db));
    expect(db.prepare('SELECT sum(n) FROM asset_mark_counts').pluck().get()).toBe(3);
    db.close();
  });

  it('sorts by rating from its index and finds flagged assets through the partial index', () => {
    const db = schema14();
    runMigrations(db, [...BEFORE, migration0015]);
    expect(plan(db, 'SELECT seq FROM assets a ORDER BY a.rating DESC, a.created_at DESC, a.seq DESC LIMIT 10')).toMatch(
      /assets_by_rating/,
    );
    expect(
      plan(db, "SELECT seq FROM assets a WHERE a.flag = 'reject' ORDER BY a.created_at DESC, a.seq DESC LIMIT 10"),
    ).toMatch(/assets_flagged/);
    expect(
      plan(db, "SELECT seq FROM assets a WHERE a.flag = 'reject' ORDER BY a.created_at DESC LIMIT 10"),
    ).not.toMatch(/TEMP B-TREE/);
    db.close();
  });
});

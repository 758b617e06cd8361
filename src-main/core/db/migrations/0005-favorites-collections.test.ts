// Migration 5 adds local favourites (counted in asset_counts), collections and their items, and
// leaves earlier rows as they were: nothing is a favourite, counts match the assets, FTS still matches.
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../database.ts';
import { runMigrations } from '../migrate.ts';
import { migration0001 } from './0001-initial.ts';
import { migration0002 } from './0002-download-details.ts';
import { migration0003 } from './0003-job-engine.ts';
import { migration0004 } from './0004-work-claims.ts';
import { migration0005 } from './0005-favorites-collections.ts';

const BEFORE = [migration0001, migration0002, migration0003, migration0004];

function schema4() {
  const db = openDatabase(':memory:', { migrations: BEFORE });
  const insert = db.prepare(
    `INSERT INTO assets (kind, id, origin, model_id, liked, file_state, prompt, created_at, local_created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, 1, 1)`,
  );
  insert.run('image', 'img_1', 'generated', 'imagea', 1, 'downloaded', 'a red fox');
  insert.run('image', 'img_2', 'generated', 'imagea', 0, 'remote', 'a blue whale');
  insert.run('video', 'vid_1', 'generated', null, 0, 'remote', 'waves');
  insert.run('image', 'img_3', 'uploaded', 'm1', 0, 'remote', null);
  return db;
}

const countsOf = (db: ReturnType<typeof openDatabase>) =>
  db
    .prepare(
      `SELECT origin, kind, model_id, offline, liked, favorite, n FROM asset_counts WHERE n > 0
       ORDER BY origin, kind, model_id, offline, liked, favorite`,
    )
    .all();

const recount = (db: ReturnType<typeof openDatabase>) =>
  db
    .prepare(
      `SELECT origin, kind, coalesce(model_id, '') AS model_id, file_state = 'downloaded' AS offline, liked, favorite,
         count(*) AS n FROM assets GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6`,
    )
    .all();

describe('migration 0005 favorites-collections', () => {
  it('adds favourites, rebuilds the counts from the assets and keeps them in step', () => {
    const db = schema4();
    expect(runMigrations(db, [...BEFORE, migration0005])).toEqual([5]);
    expect(db.prepare('SELECT count(*) FROM assets WHERE favorite = 1').pluck().get()).toBe(0);
    expect(countsOf(db)).toEqual(recount(db));

    db.prepare("UPDATE assets SET favorite = 1 WHERE id IN ('img_1', 'vid_1')").run();
    expect(countsOf(db)).toEqual(recount(db));
    expect(db.prepare('SELECT sum(n) FROM asset_counts WHERE favorite = 1').pluck().get()).toBe(2);
    db.prepare("UPDATE assets SET file_state = 'downloaded' WHERE id = 'vid_1'").run();
    db.prepare("DELETE FROM assets WHERE id = 'img_1'").run();
    db.prepare(
      "INSERT INTO assets (kind, id, origin, favorite, created_at, local_created_at) VALUES ('image', 'img_9', 'generated', 1, 2, 2)",
    ).run();
    expect(countsOf(db)).toEqual(recount(db));
    expect(() => db.prepare("UPDATE assets SET favorite = 2 WHERE id = 'img_2'").run()).toThrow(/CHECK/);

    // The full-text index is untouched: old rows still match, favouriting does not re-index.
    expect(db.prepare("SELECT count(*) FROM assets_fts WHERE assets_fts MATCH 'whale'").pluck().get()).toBe(1);
    db.close();
  });

  it('collections hold items (an asset in several), cascade with their collection and asset, names unique', () => {
    const db = schema4();
    runMigrations(db, [...BEFORE, migration0005]);
    const add = db.prepare('INSERT INTO collections (name, search, created_at, updated_at) VALUES (?, ?, 1, 1)');
    const a = Number(add.run('Foxes', null).lastInsertRowid);
    const b = Number(add.run('Best', null).lastInsertRowid);
    const smart = Number(add.run('Whales', JSON.stringify({ query: 'whale' })).lastInsertRowid);
    expect(() => add.run('foxes', null)).toThrow(/UNIQUE/);
    expect(() => add.run('   ', null)).toThrow(/CHECK/);
    expect(() => add.run('Bad', '{not json')).toThrow(/CHECK/);

    const put = db.prepare('INSERT INTO collection_items (collection_id, asset_seq, added_at) VALUES (?, ?, 1)');
    put.run(a, 1);
    put.run(b, 1);
    put.run(b, 2);
    expect(() => put.run(a, 1)).toThrow(/PRIMARY KEY|UNIQUE/);
    expect(() => put.run(smart, 1)).toThrow(/smart collection/);
    expect(() => put.run(a, 999)).toThrow(/FOREIGN KEY/);

    db.prepare('DELETE FROM assets WHERE seq = 1').run();
    expect(db.prepare('SELECT collection_id, asset_seq FROM collection_items').all()).toEqual([
      { collection_id: b, asset_seq: 2 },
    ]);
    db.prepare('DELETE FROM collections WHERE id = ?').run(b);
    expect(db.prepare('SELECT count(*) FROM collection_items').pluck().get()).toBe(0);
    db.close();
  });
});

import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { runMigrations } from '../migrate.ts';
import { migration0001 } from './0001-initial.ts';

function migrated(): Database.Database {
  const db = new Database(':memory:');
  db.pragma('foreign_keys = ON');
  expect(runMigrations(db, [migration0001])).toEqual([1]);
  return db;
}

const insertAsset = (db: Database.Database, values: Record<string, unknown>) =>
  db
    .prepare(
      `INSERT INTO assets (kind, id, origin, model_id, created_at, local_created_at, prompt, params, preset, file_state, liked)
       VALUES (@kind, @id, @origin, @model_id, @created_at, 0, @prompt, @params, @preset, @file_state, @liked)`,
    )
    .run({
      kind: 'image',
      origin: 'generated',
      model_id: 'imagea',
      created_at: 1,
      prompt: null,
      params: null,
      preset: null,
      file_state: 'remote',
      liked: 0,
      ...values,
    });

const ftsMatch = (db: Database.Database, query: string): number[] =>
  (
    db.prepare('SELECT rowid FROM assets_fts WHERE assets_fts MATCH ? ORDER BY rowid').all(query) as { rowid: number }[]
  ).map((r) => r.rowid);

describe('migration 0001 (initial)', () => {
  it('creates every table as STRICT and sets user_version 1', () => {
    const db = migrated();
    expect(db.pragma('user_version', { simple: true })).toBe(1);
    const tables = db
      .prepare("SELECT name, strict FROM pragma_table_list WHERE schema = 'main' AND type = 'table'")
      .all() as {
      name: string;
      strict: number;
    }[];
    const names = tables.map((t) => t.name);
    for (const name of ['models', 'assets', 'asset_counts', 'jobs', 'downloads', 'uploads', 'presets', 'sync_state']) {
      expect(names).toContain(name);
      expect(tables.find((t) => t.name === name)?.strict).toBe(1);
    }
    expect(db.prepare("SELECT name FROM sqlite_schema WHERE name = 'assets_fts'").get()).toBeTruthy();
  });

  it('enforces types, enumerations and uniqueness', () => {
    const db = migrated();
    expect(() => insertAsset(db, { kind: 'audio', id: 'x' })).toThrow(/CHECK/);
    expect(() => insertAsset(db, { id: 'x', file_state: 'somewhere' })).toThrow(/CHECK/);
    expect(() => insertAsset(db, { id: 'x', created_at: 'yesterday' })).toThrow(/cannot store TEXT value in INTEGER/);
    expect(() => insertAsset(db, { id: 'x', params: '{not json' })).toThrow(/CHECK/);
    insertAsset(db, { id: 'same' });
    expect(() => insertAsset(db, { id: 'same' })).toThrow(/UNIQUE/);
    insertAsset(db, { id: 'same', kind: 'video' }); // ids are unique per kind
    const job = db.prepare(
      "INSERT INTO jobs (kind, request, state, created_at, updated_at) VALUES ('image', '{}', ?, 1, 1)",
    );
    expect(() => job.run('paused')).toThrow(/CHECK/);
    job.run('submitting');
    job.run('submitting'); // job_id NULL twice is fine while submitting
  });

  it('keeps the full-text index in step with inserts, updates and deletes', () => {
    const db = migrated();
    const { lastInsertRowid } = insertAsset(db, {
      id: 'a',
      prompt: 'Golden hour over the harbor',
      params: JSON.stringify({
        prompt: 'Golden hour over the harbor',
        aspectRatio: '16:9',
        options: { imagea: { imageSize: '2K' } },
      }),
      preset: 'cinematic',
    });
    const seq = Number(lastInsertRowid);
    expect(ftsMatch(db, 'harbor')).toEqual([seq]);
    expect(ftsMatch(db, '"2K"')).toEqual([seq]); // leaf values of params are indexed
    expect(ftsMatch(db, 'params:prompt')).toEqual([]); // keys are not
    expect(ftsMatch(db, 'cinematic')).toEqual([seq]);
    expect(ftsMatch(db, 'imagea')).toEqual([seq]);
    db.prepare("UPDATE assets SET prompt = 'Snowy mountain' WHERE seq = ?").run(seq);
    expect(ftsMatch(db, 'prompt:harbor')).toEqual([]);
    expect(ftsMatch(db, 'snowy')).toEqual([seq]);
    db.prepare("UPDATE assets SET file_state = 'downloaded' WHERE seq = ?").run(seq); // no FTS churn needed
    expect(ftsMatch(db, 'snowy')).toEqual([seq]);
    db.prepare('DELETE FROM assets WHERE seq = ?').run(seq);
    expect(ftsMatch(db, 'snowy')).toEqual([]);
  });

  it('keeps asset_counts equal to a live count through inserts, updates and deletes', () => {
    const db = migrated();
    insertAsset(db, { id: '1' });
    insertAsset(db, { id: '2', liked: 1 });
    insertAsset(db, { id: '3', kind: 'video', model_id: null });
    db.prepare("UPDATE assets SET file_state = 'downloaded', model_id = 'imageb' WHERE id = '1'").run();
    db.prepare("UPDATE assets SET file_state = 'queued' WHERE id = '2'").run(); // not a counted change
    db.prepare("DELETE FROM assets WHERE id = '2'").run();
    const live = db
      .prepare(
        `SELECT origin, kind, coalesce(model_id, '') AS model_id, file_state = 'downloaded' AS offline, liked, count(*) AS n
         FROM assets GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5`,
      )
      .all();
    const kept = db
      .prepare('SELECT origin, kind, model_id, offline, liked, n FROM asset_counts WHERE n > 0 ORDER BY 1, 2, 3, 4, 5')
      .all();
    expect(kept).toEqual(live);
  });

  it('cascades a deleted asset to its download row', () => {
    const db = migrated();
    const seq = Number(insertAsset(db, { id: 'd' }).lastInsertRowid);
    db.prepare(
      "INSERT INTO downloads (asset_seq, dest, state, created_at, updated_at) VALUES (?, 'x', 'queued', 1, 1)",
    ).run(seq);
    expect(() =>
      db
        .prepare(
          "INSERT INTO downloads (asset_seq, dest, state, created_at, updated_at) VALUES (999, 'x', 'queued', 1, 1)",
        )
        .run(),
    ).toThrow(/FOREIGN KEY/);
    db.prepare('DELETE FROM assets WHERE seq = ?').run(seq);
    expect(db.prepare('SELECT count(*) AS n FROM downloads').get()).toEqual({ n: 0 });
  });
});

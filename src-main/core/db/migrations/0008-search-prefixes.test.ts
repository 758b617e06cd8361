// Migration 8 rebuilds the full-text index with prefix indexes of 2 to 10 characters: the same rows
// match every query as before, ranked the same, and the triggers keep indexing what changes.
import type Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../database.ts';
import { runMigrations } from '../migrate.ts';
import { MIGRATIONS } from './index.ts';
import { migration0008 } from './0008-search-prefixes.ts';

const EARLIER = MIGRATIONS.filter((m) => m.version < 8);
const WORDS = [
  'sunset',
  'beach',
  'lighthouse',
  'café',
  'jalapeño',
  'watercolor',
  'astronaut',
  'fox',
  'owl',
  'neon',
  'photorealistic',
];
const MODELS = ['imagea', 'imageb-pro', null];
const PRESETS = ['cinematic', 'anime', null];

function insertAsset(db: Database.Database, i: number, prompt: string | null, modelId: string | null): void {
  db.prepare(
    `INSERT INTO assets (kind, id, origin, model_id, created_at, local_created_at, prompt, params, preset)
     VALUES ('image', ?, 'generated', ?, ?, 0, ?, ?, ?)`,
  ).run(
    `a${i}`,
    modelId,
    1000 + i,
    prompt,
    prompt === null ? null : JSON.stringify({ prompt, aspectRatio: `${1 + (i % 3)}:1`, seed: 4_200_000 + i }),
    PRESETS[i % PRESETS.length],
  );
}

/** A schema-6 database holding assets with prompts, request values, models and presets. */
function schema6Library(): Database.Database {
  const db = openDatabase(':memory:', { migrations: EARLIER });
  for (let i = 0; i < 300; i += 1) {
    const words = [i, 3 * i + 1, 7 * i + 4].map((k) => WORDS[k % WORDS.length]).join(' ');
    insertAsset(db, i, i % 50 === 49 ? null : words, MODELS[i % MODELS.length] ?? null);
  }
  return db;
}

const matches = (db: Database.Database, query: string): number[] =>
  db.prepare('SELECT rowid FROM assets_fts WHERE assets_fts MATCH ? ORDER BY rowid').pluck().all(query) as number[];

/** The matches with their bm25 scores, which weigh the columns and count each word where it is indexed. */
const ranked = (db: Database.Database, query: string): string[] =>
  (
    db.prepare('SELECT rowid, rank FROM assets_fts WHERE assets_fts MATCH ? ORDER BY rank, rowid').all(query) as {
      rowid: number;
      rank: number;
    }[]
  ).map((row) => `${row.rowid}:${row.rank.toFixed(9)}`);

/** Prefixes of every length from 2 to 10 characters and one longer, words of each column, several words at once. */
const QUERIES = [
  ...['lighthouse', 'watercolor', 'astronaut', 'photorealistic'].flatMap((word) =>
    Array.from({ length: word.length - 1 }, (_, n) => `"${word.slice(0, n + 2)}"*`),
  ),
  '"cafe"*',
  '"jalap"*',
  '"sunset"* "beach"*',
  '"fo"* "ne"*',
  '"imageb"*',
  '"cinem"*',
  '"42000"*',
  '"4200017"*',
  'owl',
];

const declaredPrefixes = (db: Database.Database): string =>
  (db.prepare("SELECT sql FROM sqlite_schema WHERE name = 'assets_fts'").pluck().get() as string).match(
    /prefix\s*=\s*'([^']*)'/,
  )?.[1] ?? '';

describe('migration 0008 search-prefixes', () => {
  it('rebuilds the index with prefixes of 2 to 10 characters; every query matches and ranks as before', () => {
    const db = schema6Library();
    expect(declaredPrefixes(db)).toBe('2');
    const before = QUERIES.map((query) => ranked(db, query));
    expect(runMigrations(db, [...EARLIER, migration0008])).toEqual([8]);
    expect(declaredPrefixes(db)).toBe('2 3 4 5 6 7 8 9 10');
    const after = QUERIES.map((query) => ranked(db, query));
    expect(after).toEqual(before);
    for (const [i, found] of after.entries()) expect(found.length, QUERIES[i]).toBeGreaterThan(0);
    // FTS5's own check of the rebuilt index against its prefix indexes.
    expect(() => db.exec("INSERT INTO assets_fts (assets_fts, rank) VALUES ('integrity-check', 0)")).not.toThrow();
    db.close();
  });

  it('keeps the triggers: new, changed and deleted assets are searchable as they are', () => {
    const db = schema6Library();
    runMigrations(db, [...EARLIER, migration0008]);
    insertAsset(db, 1000, 'zeppelin over harbor', 'imagea');
    const seq = db.prepare("SELECT seq FROM assets WHERE id = 'a1000'").pluck().get() as number;
    for (const typed of ['ze', 'zep', 'zeppe', 'zeppeli', 'zeppelin'])
      expect(matches(db, `"${typed}"*`)).toEqual([seq]);
    db.prepare('UPDATE assets SET prompt = ? WHERE seq = ?').run('quokka at dawn', seq);
    expect(matches(db, '"zeppel"*')).toEqual([]);
    expect(matches(db, '"quokk"*')).toEqual([seq]);
    db.prepare('DELETE FROM assets WHERE seq = ?').run(seq);
    expect(matches(db, '"quokk"*')).toEqual([]);
    db.close();
  });
});

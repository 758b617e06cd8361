// Migration 7 rebuilds the two time indexes with width and height; what they held stays findable.
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../database.ts';
import { runMigrations } from '../migrate.ts';
import { MIGRATIONS } from './index.ts';
import { migration0007 } from './0007-layout-indexes.ts';

const columnsOf = (db: ReturnType<typeof openDatabase>, index: string): string[] =>
  (db.prepare(`PRAGMA index_info(${index})`).all() as { name: string }[]).map((c) => c.name);

describe('migration 0007 layout-indexes', () => {
  it('adds width and height to the time indexes, keeping their leading columns', () => {
    const earlier = MIGRATIONS.filter((m) => m.version < 7);
    const db = openDatabase(':memory:', { migrations: earlier });
    const before = [columnsOf(db, 'assets_by_time'), columnsOf(db, 'assets_by_kind_time')];
    db.prepare(
      `INSERT INTO assets (kind, id, origin, created_at, local_created_at, width, height)
       VALUES ('image', 'a', 'generated', 5, 5, 1920, 1080)`,
    ).run();
    expect(runMigrations(db, [...earlier, migration0007])).toEqual([7]);
    const after = [columnsOf(db, 'assets_by_time'), columnsOf(db, 'assets_by_kind_time')];
    expect(after).toEqual(before.map((cols) => [...cols, 'width', 'height']));
    expect(db.prepare('SELECT width FROM assets INDEXED BY assets_by_time WHERE created_at = 5').pluck().get()).toBe(
      1920,
    );
    db.close();
  });
});

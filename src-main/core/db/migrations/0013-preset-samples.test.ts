// Migration 13: each preset's preview is the newest image made with it that has a thumbnail, found
// by one index seek per preset (the picker opens at once in a million-asset library).
import { describe, expect, it, vi } from 'vitest';
import { createAccountDb } from '../account-db.ts';
import { openDatabase } from '../database.ts';
import { runMigrations } from '../migrate.ts';
import { MIGRATIONS } from './index.ts';
import { migration0013 } from './0013-preset-samples.ts';

describe('migration 0013 preset-samples', () => {
  it("gives each preset its newest image's thumbnail, from the index", () => {
    const earlier = MIGRATIONS.filter((m) => m.version < 13);
    const db = openDatabase(':memory:', { migrations: earlier });
    db.prepare(
      "INSERT INTO presets (tag, name, category, position) VALUES ('noir', 'Film noir', 'Cinematic', 0)",
    ).run();
    db.prepare(
      "INSERT INTO presets (tag, name, category, position) VALUES ('ink', 'Ink sketch', 'Illustration', 1)",
    ).run();
    db.prepare("INSERT INTO presets (tag, name, category, position) VALUES ('unused', 'Unused', '', 2)").run();
    const insert = db.prepare(
      `INSERT INTO assets (kind, id, origin, model_id, created_at, local_created_at, preset, thumb_path)
       VALUES (?, ?, 'generated', 'imagea-2', ?, 1, ?, ?)`,
    );
    for (let i = 0; i < 400; i += 1) insert.run('image', `plain${i}`, i, null, `thumbs/plain${i}.webp`);
    insert.run('image', 'noir-old', 10, 'noir', 'thumbs/noir-old.webp');
    insert.run('image', 'noir-new', 20, 'noir', 'thumbs/noir-new.webp');
    // Newer, but no thumbnail yet (not downloaded) or not an image: not a preview.
    insert.run('image', 'noir-remote', 30, 'noir', null);
    insert.run('video', 'noir-video', 40, 'noir', 'thumbs/noir-video.webp');
    insert.run('image', 'ink-1', 5, 'ink', 'thumbs/ink-1.webp');
    db.exec('ANALYZE');

    expect(runMigrations(db, [...earlier, migration0013])).toEqual([13]);
    const prepare = vi.spyOn(db, 'prepare');
    const cache = createAccountDb(db, ':memory:');
    try {
      const rows = cache.presets.listWithSamples();
      expect(rows.map((row) => [row.tag, row.sample_thumb])).toEqual([
        ['noir', 'thumbs/noir-new.webp'],
        ['ink', 'thumbs/ink-1.webp'],
        ['unused', null],
      ]);
      const query = String(prepare.mock.calls.at(-1)?.[0]);
      prepare.mockRestore();
      const plan = db.prepare(`EXPLAIN QUERY PLAN ${query}`).all() as { detail: string }[];
      expect(plan.map((step) => step.detail)).toContainEqual(expect.stringContaining('INDEX assets_preset_samples'));
    } finally {
      cache.close();
    }
  });
});

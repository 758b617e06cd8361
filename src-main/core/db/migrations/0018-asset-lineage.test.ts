// Migration 18: existing rows get their references (by URL path) and their own URL path, indexed;
// later writes of a request keep the references in step (triggers).
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../database.ts';
import { runMigrations } from '../migrate.ts';
import { MIGRATIONS } from './index.ts';
import { migration0018 } from './0018-asset-lineage.ts';

describe('migration 0018 asset-lineage', () => {
  it('fills the references of existing requests and indexes URL paths', () => {
    const earlier = MIGRATIONS.filter((m) => m.version < migration0018.version);
    const db = openDatabase(':memory:', { migrations: earlier });
    const insert = db.prepare(
      `INSERT INTO assets (kind, id, origin, created_at, local_created_at, url, params) VALUES (?, ?, 'generated', 1, 1, ?, ?)`,
    );
    insert.run('image', 'img_a', 'https://cdn.example/m/img_a.png?sig=old', null);
    insert.run(
      'video',
      'vid_b',
      'https://cdn.example/m/vid_b.mp4',
      JSON.stringify({
        referenceImages: [
          { url: 'http://127.0.0.1:9/m/img_a.png?sig=new', role: 'first_frame' },
          'not an object',
          { role: 'x' },
        ],
      }),
    );
    insert.run(
      'image',
      'img_c',
      null,
      JSON.stringify({ referenceImageURLs: ['https://x.example/m/img_a.png#top', 7] }),
    );
    insert.run(
      'image',
      'img_d',
      null,
      JSON.stringify({ referenceImageURLs: 'not a list', referenceImages: { url: 'x' } }),
    );
    expect(runMigrations(db, [...earlier, migration0018])).toEqual([migration0018.version]);
    expect(db.prepare('SELECT asset_seq, role, ref_path FROM asset_refs ORDER BY asset_seq').all()).toEqual([
      { asset_seq: 2, role: 'first_frame', ref_path: '/m/img_a.png' },
      { asset_seq: 3, role: 'reference_image', ref_path: '/m/img_a.png' },
    ]);
    const byPath = `SELECT id FROM assets WHERE url_path = '/m/img_a.png'`;
    expect(db.prepare(byPath).all()).toEqual([{ id: 'img_a' }]);
    expect(JSON.stringify(db.prepare(`EXPLAIN QUERY PLAN ${byPath}`).all())).toContain('assets_by_url_path');
    // A request written later replaces the references; a deleted asset takes its own with it.
    db.prepare(`UPDATE assets SET params = ? WHERE id = 'img_c'`).run(
      JSON.stringify({ referenceImageURLs: ['/m/vid_b.mp4'] }),
    );
    db.prepare(`DELETE FROM assets WHERE id = 'vid_b'`).run();
    expect(db.prepare('SELECT asset_seq, role, ref_path FROM asset_refs').all()).toEqual([
      { asset_seq: 3, role: 'reference_image', ref_path: '/m/vid_b.mp4' },
    ]);
    expect(db.prepare(`SELECT origin_job_id FROM jobs`).all()).toEqual([]);
    db.close();
  });
});

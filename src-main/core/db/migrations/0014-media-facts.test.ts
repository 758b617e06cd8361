// Migration 14: assets gain format and facts_from; rows made by a request get the size, length and
// format it asked for, a size the service gave counts as the service's, and downloaded files whose
// facts are not read yet are found through the new partial index.
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../database.ts';
import { runMigrations } from '../migrate.ts';
import { MIGRATIONS } from './index.ts';
import { migration0014 } from './0014-media-facts.ts';

const insert = (
  db: ReturnType<typeof openDatabase>,
  row: { kind: string; id: string; params: unknown; width?: number; height?: number; fileState?: string },
) =>
  db
    .prepare(
      `INSERT INTO assets (kind, id, origin, created_at, local_created_at, params, width, height, file_state)
       VALUES (?, ?, 'generated', 1, 1, ?, ?, ?, ?)`,
    )
    .run(
      row.kind,
      row.id,
      row.params === null ? null : JSON.stringify(row.params),
      row.width ?? null,
      row.height ?? null,
      row.fileState ?? 'remote',
    );

describe('migration 0013 media-facts', () => {
  it('fills the facts of existing rows from the request they were made with', () => {
    const earlier = MIGRATIONS.filter((m) => m.version < 14);
    const db = openDatabase(':memory:', { migrations: earlier });
    insert(db, { kind: 'image', id: 'wide', params: { modelID: 'imagea', prompt: 'x', aspectRatio: '3:2' } });
    insert(db, {
      kind: 'image',
      id: 'c2',
      params: { modelID: 'imagec-2', prompt: 'x', aspectRatio: '1:1', options: { imagec: { imageSize: '1K' } } },
      fileState: 'downloaded',
    });
    insert(db, { kind: 'video', id: 'clip', params: { modelID: 'videod-1.5', prompt: 'x', options: { videod: {} } } });
    insert(db, { kind: 'image', id: 'told', params: null, width: 800, height: 600 });
    insert(db, { kind: 'image', id: 'upscale', params: { imageID: 'wide' } });
    insert(db, { kind: 'image', id: 'broken', params: 'not a request' });
    expect(runMigrations(db, [...earlier, migration0014])).toEqual([14]);
    const rows = db.prepare('SELECT id, width, height, duration_ms, format, facts_from FROM assets ORDER BY seq').all();
    expect(rows).toEqual([
      { id: 'wide', width: 1024, height: 672, duration_ms: null, format: null, facts_from: 'request' },
      { id: 'c2', width: 1024, height: 1024, duration_ms: null, format: 'jpeg', facts_from: 'request' },
      { id: 'clip', width: 854, height: 480, duration_ms: 8000, format: null, facts_from: 'request' },
      { id: 'told', width: 800, height: 600, duration_ms: null, format: null, facts_from: 'service' },
      { id: 'upscale', width: null, height: null, duration_ms: null, format: null, facts_from: null },
      { id: 'broken', width: null, height: null, duration_ms: null, format: null, facts_from: null },
    ]);
    // SQL can now tell shapes apart before any download: the landscape ones, widest first.
    expect(
      db
        .prepare(`SELECT id FROM assets WHERE width > height ORDER BY width * 1.0 / height DESC, seq`)
        .all()
        .map((r) => (r as { id: string }).id),
    ).toEqual(['clip', 'wide', 'told']);
    // The downloaded file whose facts are not read yet is found through the partial index.
    const unread = `SELECT id FROM assets WHERE file_state = 'downloaded' AND facts_from IS NOT 'file'
      ORDER BY created_at DESC, seq DESC`;
    expect(db.prepare(unread).all()).toEqual([{ id: 'c2' }]);
    expect(JSON.stringify(db.prepare(`EXPLAIN QUERY PLAN ${unread}`).all())).toContain('assets_facts_unread');
    expect(() => db.prepare(`UPDATE assets SET facts_from = 'guess'`).run()).toThrow();
    db.close();
  });
});

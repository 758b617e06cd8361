// Migration 10: download_counts starts from the rows there are and stays equal to a live count
// through inserts, state changes (and saves that keep the state), deletes and an asset's deletion.
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../database.ts';
import { runMigrations } from '../migrate.ts';
import { MIGRATIONS } from './index.ts';
import { migration0010 } from './0010-download-counts.ts';

const STATES = ['queued', 'preparing', 'downloading', 'paused', 'succeeded', 'failed'];

describe('migration 0010 download-counts', () => {
  it('keeps the number of downloads in each state equal to a live count', () => {
    const earlier = MIGRATIONS.filter((m) => m.version < 10);
    const db = openDatabase(':memory:', { migrations: earlier });
    const insertAsset = db.prepare(
      "INSERT INTO assets (kind, id, origin, created_at, local_created_at) VALUES ('image', ?, 'generated', 1, 1)",
    );
    const insertDownload = db.prepare(
      "INSERT INTO downloads (asset_seq, dest, state, mode, created_at, updated_at) VALUES (?, 'd', ?, 'file', 1, 1)",
    );
    let seed = 11;
    const random = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    const addSome = (count: number, prefix: string) => {
      for (let i = 0; i < count; i += 1)
        insertDownload.run(Number(insertAsset.run(`${prefix}${i}`).lastInsertRowid), STATES[random(STATES.length)]!);
    };
    const live = () =>
      db.prepare('SELECT state, count(*) AS n FROM downloads GROUP BY state ORDER BY state').all() as {
        state: string;
        n: number;
      }[];
    const kept = () =>
      db.prepare('SELECT state, n FROM download_counts WHERE n > 0 ORDER BY state').all() as {
        state: string;
        n: number;
      }[];

    addSome(40, 'before-');
    expect(runMigrations(db, [...earlier, migration0010])).toEqual([10]);
    expect(kept()).toEqual(live());

    addSome(60, 'after-');
    const ids = db.prepare('SELECT id FROM downloads ORDER BY id').pluck().all() as number[];
    const setState = db.prepare('UPDATE downloads SET state = ?, bytes_done = bytes_done + 1 WHERE id = ?');
    for (let round = 0; round < 200; round += 1) setState.run(STATES[random(STATES.length)]!, ids[random(ids.length)]!);
    // A save that keeps the state counts nothing twice.
    db.prepare('UPDATE downloads SET state = state, bytes_done = 5').run();
    db.prepare('DELETE FROM downloads WHERE id IN (SELECT id FROM downloads ORDER BY id LIMIT 10)').run();
    // Deleting an asset removes its download (ON DELETE CASCADE), and the count follows.
    db.prepare('DELETE FROM assets WHERE seq = (SELECT asset_seq FROM downloads ORDER BY id DESC LIMIT 1)').run();
    expect(kept()).toEqual(live());
    expect(live().reduce((sum, r) => sum + r.n, 0)).toBe(89);
    db.close();
  });
});

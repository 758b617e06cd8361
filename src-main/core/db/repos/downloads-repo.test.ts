// DownloadsRepo.due against the rule it implements, written out plainly: active, its time come
// (no scheduled attempt, or one in the past), and free for this worker (unclaimed, claimed by it,
// or by a worker no longer registered); oldest first, at most `limit`.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AccountDb } from '../account-db.ts';
import { openMemoryCache } from '../test-support/test-cache.ts';
import { DownloadsRepo, type DownloadState } from './downloads-repo.ts';

let cache: AccountDb;
beforeEach(() => {
  cache = openMemoryCache();
});
afterEach(() => cache.close());

const STATES: DownloadState[] = ['queued', 'preparing', 'downloading', 'paused', 'succeeded', 'failed'];

/** The SQL texts `work` prepares on the cache's connection. */
function preparedBy(work: () => void): string[] {
  const db = cache.sqlite;
  const statements: string[] = [];
  const prepare = db.prepare.bind(db);
  db.prepare = ((text: string) => {
    statements.push(text);
    return prepare(text);
  }) as typeof db.prepare;
  try {
    work();
  } finally {
    db.prepare = prepare;
  }
  return statements;
}

describe('DownloadsRepo.due', () => {
  it('returns the rows the rule picks, in id order, whatever the mix of states, times and claims', () => {
    const db = cache.sqlite;
    db.prepare("INSERT INTO workers (token, pid, host, beat_at) VALUES ('me', 1, 'h', 0), ('alive', 2, 'h', 0)").run();
    const insertAsset = db.prepare(
      "INSERT INTO assets (kind, id, origin, url, created_at, local_created_at) VALUES ('image', ?, 'generated', 'u', 1, 1)",
    );
    const insertDownload = db.prepare(
      `INSERT INTO downloads (asset_seq, url, dest, state, mode, next_attempt_at, claimed_by, created_at, updated_at)
       VALUES (?, 'u', 'd', ?, 'file', ?, ?, 1, 1)`,
    );
    let seed = 7;
    const random = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    const now = 1000;
    const expected: number[] = [];
    let held = 0;
    for (let i = 0; i < 300; i += 1) {
      const seq = Number(insertAsset.run(`a${i}`).lastInsertRowid);
      const state = STATES[random(STATES.length)]!;
      const at = [null, now - 10, now, now + 10][random(4)]!;
      const claim = [null, null, 'me', 'alive', 'gone'][random(5)]!;
      const id = Number(insertDownload.run(seq, state, at, claim).lastInsertRowid);
      const active = state === 'queued' || state === 'preparing' || state === 'downloading';
      if (active && (at === null || at <= now) && claim !== 'alive') expected.push(id);
      if (active && claim === 'alive') held += 1;
    }
    const repo = new DownloadsRepo(db, 'me');
    for (const limit of [1, 3, 7, 50, 1000]) {
      expect(repo.due(now, limit).map((r) => r.id)).toEqual(expected.slice(0, limit));
    }
    expect(repo.heldElsewhere()).toBe(held);
    expect(held).toBeGreaterThan(0);
    expect(expected.length).toBeGreaterThan(20);
  });

  it('reads the first due rows from the active rows in id order, and no download row to find none held elsewhere', () => {
    const db = cache.sqlite;
    db.prepare("INSERT INTO workers (token, pid, host, beat_at) VALUES ('me', 1, 'h', 0)").run();
    const repo = new DownloadsRepo(db, 'me');
    const statements = preparedBy(() => {
      repo.due(1000, 6);
      repo.heldElsewhere();
    });
    const params = [[1000, 'me'], ['me']];
    const [due, held] = statements.map((text, i) =>
      (db.prepare(`EXPLAIN QUERY PLAN ${text}`).all(...params[i]!) as { detail: string }[])
        .map((p) => p.detail)
        .join(' | '),
    );
    // The limit is in the text: a bound one reads every active row.
    expect(statements[0]).toMatch(/LIMIT 6\)/);
    expect(due).toMatch(/SCAN d USING INDEX downloads_active/);
    expect(due).not.toMatch(/TEMP B-TREE/);
    // The other workers first: none registered, nothing else read.
    expect(held).toMatch(/^SEARCH w USING COVERING INDEX|^SCAN w/);
  });

  it('derives the waiting and failed figures from the rows: rows in hand in any state never make them negative', () => {
    const db = cache.sqlite;
    const insertAsset = db.prepare(
      "INSERT INTO assets (kind, id, origin, url, created_at, local_created_at) VALUES ('image', ?, 'generated', 'u', 1, 1)",
    );
    const insertDownload = db.prepare(
      "INSERT INTO downloads (asset_seq, url, dest, state, mode, created_at, updated_at) VALUES (?, 'u', 'd', ?, 'file', 1, 1)",
    );
    const ids: Record<string, number[]> = {};
    STATES.forEach((state, i) => {
      for (let n = 0; n < i + 1; n += 1) {
        const seq = Number(insertAsset.run(`${state}-${n}`).lastInsertRowid);
        (ids[state] ??= []).push(Number(insertDownload.run(seq, state).lastInsertRowid));
      }
    });
    const repo = new DownloadsRepo(db, 'me');
    const unfinished = ['queued', 'preparing', 'downloading', 'paused'].reduce((sum, s) => sum + ids[s]!.length, 0);
    expect(repo.queueFigures([])).toEqual({ waiting: unfinished, failed: ids['failed']!.length });
    // In hand: two transfers, one that already committed, one that failed, one cancelled (row gone).
    const cancelled = ids['queued']![0]!;
    db.prepare('DELETE FROM downloads WHERE id = ?').run(cancelled);
    const inHand = [
      ids['downloading']![0]!,
      ids['preparing']![0]!,
      ids['succeeded']![0]!,
      ids['failed']![0]!,
      cancelled,
    ];
    expect(repo.queueFigures(inHand)).toEqual({ waiting: unfinished - 1 - 2, failed: ids['failed']!.length });
    // Everything unfinished in hand: zero, never below.
    const all = db
      .prepare('SELECT id FROM downloads')
      .all()
      .map((row) => (row as { id: number }).id);
    expect(repo.queueFigures([...all, cancelled, 9_999])).toEqual({ waiting: 0, failed: ids['failed']!.length });
    // Totals from the kept counts; the rows in hand by primary key, never a scan of the table.
    const statements = preparedBy(() => new DownloadsRepo(db, 'me').queueFigures(inHand));
    expect(statements.join(' ')).toMatch(/FROM download_counts/);
    const plan = db
      .prepare(`EXPLAIN QUERY PLAN ${statements[0]!}`)
      .all(...[JSON.stringify(inHand)])
      .map((row) => (row as { detail: string }).detail)
      .join('\n');
    expect(plan).not.toMatch(/SCAN (d|downloads)\b/);
  });
});

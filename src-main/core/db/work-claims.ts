// Which process works on which row, for the processes that share one data folder (the app, the
// CLI, a second CLI). Each process that runs background work on an account database is a worker:
// a row in `workers` with a heartbeat. A download, an upload or a job being sent is claimed by one
// worker before it starts; the others leave it alone while that worker lives and take it over
// once it is gone (its pid dead on this host, or its heartbeat stale). So two processes never
// write one .part file or send one upload twice, and a crash never strands work.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type BetterSqlite3 from 'better-sqlite3';
import { isDiskFull } from '../host/disk-full.ts';
import { sql, type SqlFragment, type SqlValue } from './sql.ts';

// Typed on better-sqlite3 itself: database.ts retires the claims of a handle it closes.
type SqliteDatabase = BetterSqlite3.Database;

export const HEARTBEAT_MS = 5_000;
/** A worker silent this long is gone even if its pid is alive (pid reuse, another host). */
export const STALE_AFTER_MS = 30_000;

export type ClaimedTable = 'downloads' | 'uploads' | 'jobs';

const KEY_OF: Record<ClaimedTable, string> = { downloads: 'id', uploads: 'id', jobs: 'local_id' };

/** The claim column, bare or under the alias a query gives its table (`downloads d`). */
const CLAIMED_BY = { '': sql`claimed_by`, 'd.': sql`d.claimed_by` } as const;

/**
 * True when the row may be worked on by `me` (a worker's token): unclaimed, claimed by `me`, or
 * claimed by a worker no longer registered.
 */
export function freeFor(me: SqlValue | SqlFragment, alias: keyof typeof CLAIMED_BY = ''): SqlFragment {
  const col = CLAIMED_BY[alias];
  return sql`(${col} IS NULL OR ${col} = ${me} OR ${col} NOT IN (SELECT token FROM workers WHERE token <> ${me}))`;
}

/** freeFor as text with the named parameter `@me`, for statements prepared with named parameters. */
export function freeForMe(alias: keyof typeof CLAIMED_BY = ''): string {
  return freeFor(sql`@me`, alias).text;
}

export interface WorkClaimsOptions {
  pid?: number;
  host?: string;
  now?: () => number;
  /** Whether a pid runs on this host (tests stand in for dead processes). */
  isAlive?: (pid: number) => boolean;
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

type Statement = BetterSqlite3.Statement;

/** The claim statements of one table, prepared once per registry (claims run on every queue launch). */
interface TableStatements {
  claim: Statement;
  release: Statement;
  releaseAll: Statement;
}

export class WorkClaims {
  readonly token = randomUUID();
  readonly #db: SqliteDatabase;
  readonly #pid: number;
  readonly #host: string;
  readonly #now: () => number;
  readonly #isAlive: (pid: number) => boolean;
  readonly #beat: Statement;
  readonly #others: BetterSqlite3.Statement<[string], { token: string; pid: number; host: string; beat_at: number }>;
  readonly #remove: Statement;
  readonly #tables: Record<ClaimedTable, TableStatements>;
  #timer: NodeJS.Timeout | null = null;
  #retired = false;

  constructor(db: SqliteDatabase, options: WorkClaimsOptions = {}) {
    this.#db = db;
    this.#pid = options.pid ?? process.pid;
    this.#host = options.host ?? hostname();
    this.#now = options.now ?? Date.now;
    this.#isAlive = options.isAlive ?? processIsAlive;
    this.#beat = db.prepare(
      'INSERT INTO workers (token, pid, host, beat_at) VALUES (@token, @pid, @host, @now) ON CONFLICT (token) DO UPDATE SET beat_at = @now',
    );
    this.#others = db.prepare('SELECT token, pid, host, beat_at FROM workers WHERE token <> ?');
    this.#remove = db.prepare('DELETE FROM workers WHERE token = ?');
    const statementsOf = (table: ClaimedTable): TableStatements => {
      const id = KEY_OF[table];
      return {
        claim: db.prepare(`UPDATE ${table} SET claimed_by = @me WHERE ${id} = @key AND ${freeForMe()}`),
        release: db.prepare(`UPDATE ${table} SET claimed_by = NULL WHERE ${id} = ? AND claimed_by = ?`),
        releaseAll: db.prepare(`UPDATE ${table} SET claimed_by = NULL WHERE claimed_by = ?`),
      };
    };
    this.#tables = {
      downloads: statementsOf('downloads'),
      uploads: statementsOf('uploads'),
      jobs: statementsOf('jobs'),
    };
    try {
      this.#beatNow();
      this.sweep();
    } catch (error) {
      // On a full disk the first beat waits for the timer: the account must still open.
      if (!isDiskFull(error)) throw error;
    }
    this.#timer = setInterval(() => {
      try {
        this.beat();
      } catch {
        // A full disk (SQLITE_FULL) or a busy database: skip this beat, the next one tries again.
        // Thrown from an interval it would end the process.
      }
    }, HEARTBEAT_MS);
    this.#timer.unref();
  }

  /** Says this worker is alive and forgets the workers that are not. */
  beat(): void {
    if (this.#retired || !this.#db.open) return this.#stopTimer();
    this.#beatNow();
    this.sweep();
  }

  #beatNow(): void {
    this.#beat.run({ token: this.token, pid: this.#pid, host: this.#host, now: this.#now() });
  }

  /** Removes the workers that died; their claims become free. Returns how many were removed. */
  sweep(): number {
    const staleBefore = this.#now() - STALE_AFTER_MS;
    const dead = this.#others
      .all(this.token)
      .filter((w) => w.beat_at < staleBefore || (w.host === this.#host && !this.#isAlive(w.pid)));
    for (const worker of dead) this.#remove.run(worker.token);
    return dead.length;
  }

  /** Takes the row if it is free (see freeForMe); true when this worker now holds it. */
  claim(table: ClaimedTable, key: number): boolean {
    return this.#tables[table].claim.run({ me: this.token, key }).changes === 1;
  }

  /** Lets go of a row this worker holds, so any process may pick it up next. */
  release(table: ClaimedTable, key: number): void {
    if (this.#db.open) this.#tables[table].release.run(key, this.token);
  }

  /** Leaves: every claim is released and the worker row removed, so others take over at once. */
  retire(): void {
    if (this.#retired) return;
    this.#retired = true;
    this.#stopTimer();
    if (!this.#db.open || this.#db.readonly) return;
    for (const statements of Object.values(this.#tables)) statements.releaseAll.run(this.token);
    this.#remove.run(this.token);
  }

  #stopTimer(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
  }
}

const claimsByHandle = new WeakMap<SqliteDatabase, WorkClaims>();

/** The one worker of this process on an open database (registered on first use). */
export function workClaimsOf(db: SqliteDatabase): WorkClaims {
  let claims = claimsByHandle.get(db);
  if (!claims) {
    claims = new WorkClaims(db);
    claimsByHandle.set(db, claims);
  }
  return claims;
}

/** Retires this process's worker on a database about to close (closeDatabase calls it). */
export function retireWorkClaims(db: SqliteDatabase): void {
  claimsByHandle.get(db)?.retire();
  claimsByHandle.delete(db);
}

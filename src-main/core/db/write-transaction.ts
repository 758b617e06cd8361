// The one way to run a read-then-write unit of work on an account database. Several processes
// share a data folder (the app, the CLI, a second CLI), so every such transaction takes the
// write lock at BEGIN. A DEFERRED transaction that reads first holds a WAL snapshot; if another
// process commits before it writes, the upgrade fails at once with SQLITE_BUSY_SNAPSHOT and
// busy_timeout never gets a chance to wait. BEGIN IMMEDIATE waits out the busy timeout instead.
import type { SqliteDatabase } from './database.ts';

/** Runs `work` in one IMMEDIATE transaction: all of it commits, or none of it on a throw. */
export function writeTransaction<T>(db: SqliteDatabase, work: () => T): T {
  return db.transaction(work).immediate();
}

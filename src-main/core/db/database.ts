// Opens an account's SQLite file with the pragmas the app relies on and migrates it to the
// current schema (or refuses it, when a newer Atelier wrote it).
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type BetterSqlite3 from 'better-sqlite3';
import { AppError } from '../../contract/errors.ts';
import { latestVersion, newerSchemaError, readUserVersion, runMigrations, type Migration } from './migrate.ts';
import { MIGRATIONS } from './migrations/index.ts';
import { retireWorkClaims } from './work-claims.ts';

export type SqliteDatabase = BetterSqlite3.Database;

export interface OpenDatabaseOptions {
  readonly?: boolean;
  /** Tests only: migrate with another list (e.g. to stop at an older version). */
  migrations?: readonly Migration[];
  /** Milliseconds a writer waits for another connection's lock before failing. Default 5000. */
  busyTimeoutMs?: number;
}

export const SCHEMA_VERSION = latestVersion(MIGRATIONS);

const IN_MEMORY = ':memory:';

export function openDatabase(file: string, options: OpenDatabaseOptions = {}): SqliteDatabase {
  const migrations = options.migrations ?? MIGRATIONS;
  const readonly = options.readonly ?? false;
  if (!readonly && file !== IN_MEMORY) mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file, { readonly, fileMustExist: readonly });
  try {
    db.pragma(`busy_timeout = ${Math.trunc(options.busyTimeoutMs ?? 5000)}`);
    db.pragma('foreign_keys = ON');
    // Room for the library's indexes (a 100k-asset library's fit in a few MB each); allocated as used.
    db.pragma('cache_size = -32000');
    if (readonly) {
      checkReadonlyVersion(db, migrations);
    } else {
      // WAL lets readers (a bench, a second window) work while the engine writes; NORMAL is
      // durable across app crashes in WAL mode and only risks the last commit on power loss.
      if (file !== IN_MEMORY) db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      runMigrations(db, migrations);
      // Cheap on a long-lived connection: gathers statistics the planner uses for the library indexes.
      db.pragma('optimize = 0x10002');
    }
    return db;
  } catch (error) {
    db.close();
    throw isDamaged(error) ? damagedError(file) : error;
  }
}

const isDamaged = (error: unknown): boolean =>
  error instanceof Database.SqliteError && (error.code === 'SQLITE_NOTADB' || error.code.startsWith('SQLITE_CORRUPT'));

function damagedError(file: string): AppError {
  return new AppError({
    code: 'internal',
    message: `The library database ${file} is damaged or is not a database. Quit Atelier and move it aside; a fresh one is made on the next start and a refresh fills it again.`,
  });
}

function checkReadonlyVersion(db: SqliteDatabase, migrations: readonly Migration[]): void {
  const version = readUserVersion(db);
  const latest = latestVersion(migrations);
  if (version > latest) throw newerSchemaError(version);
  if (version < latest) {
    throw new AppError({
      code: 'unsupported',
      message: `This library uses an older schema (${version}); open it once in Atelier to upgrade it before reading it here`,
    });
  }
}

/** Lets SQLite refresh its planner statistics before the handle goes away. */
export function closeDatabase(db: SqliteDatabase): void {
  if (!db.open) return;
  try {
    retireWorkClaims(db);
    if (!db.readonly) db.pragma('optimize');
  } finally {
    db.close();
  }
}

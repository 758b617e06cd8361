// Opens an account's SQLite file with the pragmas the app relies on and migrates it to the
// current schema (or refuses it, when a newer Atelier wrote it).
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type BetterSqlite3 from 'better-sqlite3';
import { AppError } from '../../contract/errors.ts';
import type { AccountOpenProblemInfo } from '../../contract/ipc/app.ts';
import { isDiskFull } from '../host/disk-full.ts';
import {
  latestVersion,
  newerSchemaError,
  NewerSchemaError,
  readUserVersion,
  runMigrations,
  type Migration,
} from './migrate.ts';
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

/** Why an account database could not be opened, in words, with what the user can do about it. */
export class DatabaseOpenError extends AppError {
  readonly kind: AccountOpenProblemInfo['kind'];
  readonly file: string;
  constructor(kind: AccountOpenProblemInfo['kind'], file: string, message: string) {
    super({ code: kind === 'disk_full' ? 'disk_full' : kind === 'newer' ? 'unsupported' : 'internal', message });
    this.name = 'DatabaseOpenError';
    this.kind = kind;
    this.file = file;
  }
}

const codeOf = (error: unknown): string => String((error as { code?: unknown } | null)?.code ?? '');

/** The open failure in words: newer, damaged, unreadable, read-only, disk full; else as it was. */
export function describeOpenFailure(error: unknown, file: string): unknown {
  const code = codeOf(error);
  const folder = dirname(file);
  if (error instanceof NewerSchemaError) {
    return new DatabaseOpenError(
      'newer',
      file,
      `${error.info.message}, or start fresh: the old file is kept next to the new one (${file}).`,
    );
  }
  if (isDamaged(error)) {
    return new DatabaseOpenError(
      'damaged',
      file,
      `The library database ${file} is damaged or is not a database. Start fresh to set it aside (it is kept) and fill a new one from the service.`,
    );
  }
  if (code === 'EROFS' || code.startsWith('SQLITE_READONLY')) {
    return new DatabaseOpenError(
      'read_only',
      file,
      `The data folder ${folder} is read-only, so Atelier cannot keep its library database there. Make it writable, or start Atelier with another data folder (ATELIER_DATA_DIR).`,
    );
  }
  if (isDiskFull(error)) {
    return new DatabaseOpenError(
      'disk_full',
      file,
      `The disk is full, so the library database ${file} could not be opened. Free some space, then restart Atelier.`,
    );
  }
  if (
    ['EACCES', 'EPERM', 'SQLITE_CANTOPEN', 'SQLITE_PERM', 'SQLITE_AUTH', 'SQLITE_IOERR'].some((c) => code.startsWith(c))
  ) {
    return new DatabaseOpenError(
      'unreadable',
      file,
      `The library database ${file} cannot be read (${code}). Check that your user may read and write ${folder}, or start fresh (the old file is kept).`,
    );
  }
  return error;
}

export function openDatabase(file: string, options: OpenDatabaseOptions = {}): SqliteDatabase {
  try {
    return openDatabaseFile(file, options);
  } catch (error) {
    throw file === IN_MEMORY ? error : describeOpenFailure(error, file);
  }
}

function openDatabaseFile(file: string, options: OpenDatabaseOptions): SqliteDatabase {
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
      // Only an optimisation: a full disk must not keep the account from opening.
      try {
        db.pragma('optimize = 0x10002');
      } catch (error) {
        if (!isDiskFull(error)) throw error;
      }
    }
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

const isDamaged = (error: unknown): boolean =>
  error instanceof Database.SqliteError && (error.code === 'SQLITE_NOTADB' || error.code.startsWith('SQLITE_CORRUPT'));

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

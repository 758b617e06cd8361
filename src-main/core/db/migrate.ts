// Schema migrations on `PRAGMA user_version`: an ordered list, one transaction per version, and a
// database written by a newer Atelier is refused instead of being half-understood.
import type BetterSqlite3 from 'better-sqlite3';
import { AppError } from '../../contract/errors.ts';

export interface Migration {
  /** The user_version the database has after this step; the list runs 1, 2, 3, … */
  readonly version: number;
  readonly name: string;
  up(db: BetterSqlite3.Database): void;
}

/** The list must count 1, 2, 3, … without gaps or repeats; a mistake here is a programming error. */
export function checkMigrationList(migrations: readonly Migration[]): void {
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1) {
      throw new Error(
        `Migration list out of order: position ${index + 1} holds version ${migration.version} (${migration.name})`,
      );
    }
  });
}

export const latestVersion = (migrations: readonly Migration[]): number => migrations.at(-1)?.version ?? 0;

export function readUserVersion(db: BetterSqlite3.Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/** A database written by a newer Atelier: refused, never half-understood. */
export class NewerSchemaError extends AppError {
  readonly version: number;
  constructor(version: number) {
    super({
      code: 'unsupported',
      message: `This library was written by a newer Atelier (schema ${version}); update Atelier to open it`,
    });
    this.version = version;
  }
}

export function newerSchemaError(version: number): AppError {
  return new NewerSchemaError(version);
}

/** Brings the database up to the last version of the list; returns the versions applied. */
export function runMigrations(db: BetterSqlite3.Database, migrations: readonly Migration[]): number[] {
  checkMigrationList(migrations);
  const current = readUserVersion(db);
  const latest = latestVersion(migrations);
  if (current > latest) throw newerSchemaError(current);
  const applied: number[] = [];
  for (const migration of migrations) {
    if (migration.version <= current) continue;
    // The version bump commits with the step, so a crash leaves the database at a version boundary.
    // The version is read again under the write lock (IMMEDIATE): another process (the app and
    // the CLI on one data folder) may have applied this step since we looked.
    const ran = db
      .transaction(() => {
        if (readUserVersion(db) >= migration.version) return false;
        migration.up(db);
        db.pragma(`user_version = ${Math.trunc(migration.version)}`);
        return true;
      })
      .immediate();
    if (ran) applied.push(migration.version);
  }
  return applied;
}

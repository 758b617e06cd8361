// Caches for tests: a migrated in-memory database, or a temporary file that is removed afterwards.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAccountDb, openAccountDb, type AccountDb } from '../account-db.ts';
import { openDatabase } from '../database.ts';

export function openMemoryCache(): AccountDb {
  return createAccountDb(openDatabase(':memory:'), ':memory:');
}

export interface TempCache {
  cache: AccountDb;
  dir: string;
  file: string;
  /** Closes the cache (if open) and deletes the folder. */
  dispose(): void;
}

export function openTempCache(): TempCache {
  const dir = mkdtempSync(join(tmpdir(), 'atelier-db-'));
  const file = join(dir, 'atelier.db');
  const cache = openAccountDb(file);
  return {
    cache,
    dir,
    file,
    dispose() {
      if (cache.sqlite.open) cache.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

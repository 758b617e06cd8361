// One account's database: the open SQLite file with its repositories, a transaction helper and
// close(). Not a cache: besides what the service said (models, assets, presets) it is the only
// store of what is local (favourites, collections, the outbox of submissions, downloads). This is
// the `cache` an account session carries (the field keeps its old name).
import { closeDatabase, openDatabase, type OpenDatabaseOptions, type SqliteDatabase } from './database.ts';
import { AssetsRepo } from './repos/assets-repo.ts';
import { BatchesRepo } from './repos/batches-repo.ts';
import { CollectionsRepo } from './repos/collections-repo.ts';
import { ExperimentsRepo } from './repos/experiments-repo.ts';
import { JobsRepo } from './repos/jobs-repo.ts';
import { MarksRepo } from './repos/marks-repo.ts';
import { LineageRepo } from './repos/lineage-repo.ts';
import { ModelsRepo } from './repos/models-repo.ts';
import { PresetsRepo } from './repos/presets-repo.ts';
import { SyncStateRepo } from './repos/sync-state-repo.ts';
import { UploadsRepo } from './repos/uploads-repo.ts';
import { writeTransaction } from './write-transaction.ts';

export interface AccountDb {
  readonly file: string;
  readonly sqlite: SqliteDatabase;
  readonly models: ModelsRepo;
  readonly assets: AssetsRepo;
  /** Ratings and flags (schema 15). */
  readonly marks: MarksRepo;
  readonly collections: CollectionsRepo;
  readonly presets: PresetsRepo;
  readonly jobs: JobsRepo;
  readonly batches: BatchesRepo;
  /** Experiments: a batch with its axes and cell grid (schema 19). */
  readonly experiments: ExperimentsRepo;
  readonly uploads: UploadsRepo;
  readonly syncState: SyncStateRepo;
  /** An asset's relatives (the family tree); read only. */
  readonly lineage: LineageRepo;
  /** Runs `work` in one IMMEDIATE transaction: all of it commits, or none of it on a throw. */
  transaction<T>(work: () => T): T;
  close(): void;
}

export function createAccountDb(sqlite: SqliteDatabase, file = sqlite.name): AccountDb {
  return {
    file,
    sqlite,
    models: new ModelsRepo(sqlite),
    assets: new AssetsRepo(sqlite),
    marks: new MarksRepo(sqlite),
    collections: new CollectionsRepo(sqlite),
    presets: new PresetsRepo(sqlite),
    jobs: new JobsRepo(sqlite),
    batches: new BatchesRepo(sqlite),
    experiments: new ExperimentsRepo(sqlite),
    uploads: new UploadsRepo(sqlite),
    syncState: new SyncStateRepo(sqlite),
    lineage: new LineageRepo(sqlite),
    transaction: <T>(work: () => T): T => writeTransaction(sqlite, work),
    close: () => closeDatabase(sqlite),
  };
}

/** Opens (creating and migrating as needed) the cache stored in `file`. */
export function openAccountDb(file: string, options: OpenDatabaseOptions = {}): AccountDb {
  const sqlite = openDatabase(file, options);
  try {
    return createAccountDb(sqlite, file);
  } catch (error) {
    closeDatabase(sqlite);
    throw error;
  }
}

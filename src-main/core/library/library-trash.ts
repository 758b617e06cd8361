// The open library's trash (the trash:* channels and the start-up and daily purge): the bin on
// disk (folder/trash-bin.ts) tied to the library's download queue, its announcements and its clock.
// Removing a local copy (library.ts removeLocal) puts it here; it is kept TRASH_KEEP_DAYS
// (contract/ipc/trash.ts), then purged at a start or by the daily check.
import type { AssetRefInfo, RemoveLocalInfo } from '../../contract/ipc/library.ts';
import type { AssetsChangedInfo } from '../../contract/ipc/assets.ts';
import type { TrashEmptyInfo, TrashRestoreInfo, TrashSummaryInfo } from '../../contract/ipc/trash.ts';
import { AppError } from '../../contract/errors.ts';
import type { AssetRow } from '../db/repos/asset-row.ts';
import type { AssetsRepo } from '../db/repos/assets-repo.ts';
import type { LocalCopiesRepo } from '../db/repos/local-copies-repo.ts';
import type { TrashEntryRow, TrashRepo } from '../db/repos/trash-repo.ts';
import { createTrashBin } from './folder/trash-bin.ts';

/** How often a running library purges what has been in the trash too long (also at each start). */
export const TRASH_PURGE_EVERY_MS = 24 * 60 * 60 * 1000;

export interface LibraryTrashDeps {
  trash: TrashRepo;
  copies: LocalCopiesRepo;
  assets: AssetsRepo;
  root(): string;
  area: string;
  now(): number;
  /** Stops downloads of these assets (a restore of one being downloaded again). */
  cancelDownloads(refs: readonly AssetRefInfo[]): Promise<unknown>;
  /** A copy back in the library: its thumbnail is made if it has none. */
  onRestored(asset: AssetRow): void;
  announce(reason: AssetsChangedInfo['reason'], refs: readonly AssetRefInfo[]): void;
  emitTrash?(summary: TrashSummaryInfo): void;
  logError(message: string, error: unknown): void;
}

export interface TrashEntry {
  entry: TrashEntryRow;
  asset: AssetRow;
}

const refOf = (row: { kind: 'image' | 'video'; id: string }): AssetRefInfo => ({ kind: row.kind, id: row.id });
const reasonOf = (error: unknown): string =>
  error instanceof AppError ? error.info.message : 'It could not be put back (see the log).';

export function createLibraryTrash(deps: LibraryTrashDeps) {
  const bin = createTrashBin(deps);
  const changed = (): void => deps.emitTrash?.(deps.trash.totals());
  let timer: ReturnType<typeof setInterval> | undefined;
  let stopped = false;
  /** One piece of trash work at a time (a restore, an empty, a purge): each sees the others' result. */
  let chain: Promise<unknown> = Promise.resolve();
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const next = chain.then(work);
    chain = next.catch(() => undefined);
    return next;
  };

  const entriesOf = (refs: readonly AssetRefInfo[]): TrashEntryRow[] => deps.trash.entries(deps.assets.seqsOf(refs));

  const purge = (): Promise<void> =>
    serial(async () => {
      const expired = await bin.purgeExpired();
      if (expired.length > 0) changed();
    });

  return {
    bin,
    /**
     * Moves these assets' local copies into the trash, each after `settle(seq)` (settings being
     * written into it); a copy that cannot move stays where it is, with the reason.
     */
    async putAll(
      rows: readonly { ref: AssetRefInfo; asset: AssetRow | undefined }[],
      settle: (seq: number) => Promise<unknown> | undefined,
    ): Promise<RemoveLocalInfo> {
      const result: RemoveLocalInfo = { removed: [], failed: [] };
      for (const { ref, asset } of rows) {
        if (!asset) continue;
        await settle(asset.seq);
        // Read again after the settings were written into it: its size and digest changed.
        const fresh = deps.assets.getBySeq(asset.seq);
        try {
          if (fresh && (await serial(() => bin.put(fresh)))) result.removed.push(ref);
        } catch (error) {
          if (!(error instanceof AppError)) deps.logError(`Moving ${ref.kind} ${ref.id} to the trash failed`, error);
          result.failed.push({
            asset: ref,
            reason: error instanceof AppError ? error.info.message : 'It could not be moved.',
          });
        }
      }
      if (result.removed.length > 0) changed();
      return result;
    },
    /** An asset leaving the library: its trashed copy goes for good. */
    drop: (seq: number): Promise<void> =>
      serial(async () => {
        const row = deps.trash.get(seq);
        if (!row) return;
        await bin.empty([row]);
        changed();
      }),

    list(): TrashEntry[] {
      const rows = deps.trash.entries();
      const out: TrashEntry[] = [];
      for (const entry of rows) {
        const asset = deps.assets.getBySeq(entry.asset_seq);
        if (asset) out.push({ entry, asset });
      }
      return out;
    },
    summary: (): TrashSummaryInfo => deps.trash.totals(),

    restore: (refs: readonly AssetRefInfo[]): Promise<TrashRestoreInfo> =>
      serial(async () => {
        const result: TrashRestoreInfo = { restored: [], alreadyLocal: [], failed: [] };
        const rows = entriesOf(refs);
        const found = new Set(rows.map((row) => `${row.kind}:${row.id}`));
        for (const ref of refs) {
          if (!found.has(`${ref.kind}:${ref.id}`))
            result.failed.push({ asset: ref, reason: 'It is not in the trash.' });
        }
        // A download of it under way (asked for again since) is stopped: the trashed copy is the one wanted.
        const inFlight = rows.filter((row) => {
          const state = deps.assets.getBySeq(row.asset_seq)?.file_state;
          return state === 'queued' || state === 'downloading';
        });
        if (inFlight.length > 0) await deps.cancelDownloads(inFlight.map(refOf));
        for (const row of rows) {
          try {
            const outcome = await bin.restore(row);
            (outcome === 'restored' ? result.restored : result.alreadyLocal).push(refOf(row));
            const asset = deps.assets.getBySeq(row.asset_seq);
            if (outcome === 'restored' && asset) deps.onRestored(asset);
          } catch (error) {
            if (!(error instanceof AppError))
              deps.logError(`Restoring ${row.kind} ${row.id} from the trash failed`, error);
            result.failed.push({ asset: refOf(row), reason: reasonOf(error) });
          }
        }
        deps.announce('download', result.restored);
        if (rows.length > 0) changed();
        return result;
      }),

    empty: (refs?: readonly AssetRefInfo[]): Promise<TrashEmptyInfo> =>
      serial(async () => {
        const rows = refs ? entriesOf(refs) : deps.trash.entries();
        const bytes = await bin.empty(rows);
        if (rows.length > 0) changed();
        return { removed: rows.length, bytes };
      }),

    /** The start-up check, then the purge, then a purge every day while the library runs. */
    async start(): Promise<void> {
      const { forgotten, changed: fixed } = await serial(() => bin.reconcile());
      deps.announce('download', forgotten.map(refOf));
      if (fixed || forgotten.length > 0) changed();
      await purge();
      if (stopped) return;
      timer = setInterval(() => {
        purge().catch((error: unknown) => deps.logError('Emptying old trash failed', error));
      }, TRASH_PURGE_EVERY_MS);
      timer.unref?.();
    },
    purge,
    async stop(): Promise<void> {
      stopped = true;
      clearInterval(timer);
      await chain;
    },
  };
}

export type LibraryTrash = ReturnType<typeof createLibraryTrash>;

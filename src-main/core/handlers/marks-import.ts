// The handler of library:import-marks: the stars and flags an export wrote, read back from a folder
// (core/library/media/marks-files.ts) and set on the assets they name, by kind and id, in one
// transaction. The file wins: its marks replace the library's, whichever is newer (the files say
// nothing of when they were marked). An asset named by several files takes the first by file name.
// Unknown assets and unreadable files are reported by name and reason; nothing else changes.
import { resolve } from 'node:path';
import { AppError } from '../../contract/errors.ts';
import type { FileMarkFlag } from '../../contract/file-marks.ts';
import type { MarksImportFileInfo, MarksImportInfo } from '../../contract/ipc/library.ts';
import type { AccountDb } from '../db/account-db.ts';
import type { EventBus } from '../events.ts';
import { readMarksFolder, type FoundMarks } from '../library/library-host.ts';
import { collectionInfos } from './collections.ts';

export interface MarksImportDeps {
  cache(): AccountDb;
  events: EventBus;
}

/** At most this many unmatched or skipped files are named in the answer (the totals count them all). */
const LISTED = 200;
const NAMED_IN_EVENT = 100;

const keyOf = (ref: { kind: string; id: string }): string => `${ref.kind}:${ref.id}`;

function folderProblem(error: unknown, folder: string): AppError | null {
  const code = error instanceof Error && 'code' in error ? (error as NodeJS.ErrnoException).code : undefined;
  const say = (message: string) => new AppError({ code: 'invalid_argument', field: 'from', message });
  if (code === 'ENOENT') return say(`There is no folder at ${folder}.`);
  if (code === 'ENOTDIR') return say(`${folder} is a file, not a folder.`);
  if (code === 'EACCES' || code === 'EPERM') return say(`The folder ${folder} cannot be read (no permission).`);
  return null;
}

export function marksImportHandlers(deps: MarksImportDeps) {
  return {
    'library:import-marks': async ({ from }: { from: string }): Promise<MarksImportInfo> => {
      const folder = resolve(from);
      let read;
      try {
        read = await readMarksFolder(folder);
      } catch (error) {
        throw folderProblem(error, folder) ?? error;
      }
      const wanted = new Map<string, FoundMarks>();
      for (const found of read.found) if (!wanted.has(keyOf(found))) wanted.set(keyOf(found), found);
      const cache = deps.cache();
      const unmatched: MarksImportFileInfo[] = [...read.unmatched];
      const { changed, matched } = cache.transaction(() => {
        const refs = [...wanted.values()].map(({ kind, id }) => ({ kind, id }));
        const rows = new Map(cache.marks.marksOf(cache.assets.seqsOf(refs)).map((row) => [keyOf(row), row]));
        // One statement per distinct (stars, flag) pair: a handful, whatever the count.
        const groups = new Map<string, { rating: number; flag: FileMarkFlag | null; seqs: number[] }>();
        for (const [key, found] of wanted) {
          const row = rows.get(key);
          if (!row) {
            unmatched.push({ file: found.file, reason: 'The item it names is not in this library.' });
            continue;
          }
          const group = `${found.rating}:${found.flag ?? ''}`;
          const entry = groups.get(group) ?? { rating: found.rating, flag: found.flag, seqs: [] };
          entry.seqs.push(row.seq);
          groups.set(group, entry);
        }
        const changedSeqs: number[] = [];
        let count = 0;
        for (const { rating, flag, seqs } of groups.values()) {
          count += seqs.length;
          changedSeqs.push(...cache.marks.setMarks(seqs, { rating, flag }));
        }
        return { changed: changedSeqs, matched: count };
      });
      if (changed.length > 0) {
        const refs = cache.assets.refsOf(changed).map(({ kind, id }) => ({ kind, id }));
        deps.events.emit('assets:changed', {
          reason: 'organize',
          kinds: [...new Set(refs.map((ref) => ref.kind))],
          ...(refs.length <= NAMED_IN_EVENT ? { assets: refs } : {}),
        });
        deps.events.emit('collections:changed', { collections: collectionInfos(cache) });
      }
      return {
        from: folder,
        found: read.found.length + read.unmatched.length,
        restored: changed.length,
        unchanged: matched - changed.length,
        unmatched: unmatched.slice(0, LISTED),
        unmatchedTotal: unmatched.length,
        skipped: read.skipped.slice(0, LISTED),
        skippedTotal: read.skipped.length,
      };
    },
  };
}

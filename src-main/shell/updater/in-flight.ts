// What is in flight, read from the core: its events say when a job is being sent, an upload is
// sending, the download queue has active transfers or the library folder is moving, and one
// snapshot through dispatch covers what was already running before this started listening (and
// the new account's work after a switch). Electron-free; the updater reads it through
// InFlightSource.
import type { JobInfo } from '../../contract/ipc/jobs.ts';
import type { DownloadsChangedInfo, DownloadsInfo, LibraryMoveInfo } from '../../contract/ipc/library.ts';
import type { UploadInfo } from '../../contract/ipc/uploads.ts';
import type { Core } from '../../core/core.ts';
import type { InFlightSource } from './update-controller.ts';
import type { InFlight } from './update-policy.ts';

export interface WatchedInFlight extends InFlightSource {
  /** Reads the core's lists again (done at start and after an account switch). */
  refresh(): Promise<void>;
  close(): void;
}

const MOVING: ReadonlySet<LibraryMoveInfo['state']> = new Set(['copying', 'verifying', 'switching', 'cleaning']);

export function watchCoreInFlight(core: Pick<Core, 'dispatch' | 'events'>): WatchedInFlight {
  const submitting = new Set<number>();
  const uploading = new Set<number>();
  let activeDownloads = 0;
  let libraryMove = false;
  const listeners = new Set<() => void>();
  let closed = false;

  const changed = (): void => {
    for (const listener of listeners) listener();
  };

  const track = (set: Set<number>, id: number, inFlight: boolean): boolean => {
    if (inFlight === set.has(id)) return false;
    if (inFlight) set.add(id);
    else set.delete(id);
    return true;
  };

  async function refresh(): Promise<void> {
    const [jobs, uploads, downloads] = await Promise.all([
      core.dispatch('jobs:list', { limit: 500 }),
      core.dispatch('uploads:list', undefined),
      core.dispatch('library:downloads', undefined),
    ]);
    if (closed) return;
    // No account open: every list answers an error, and nothing runs.
    submitting.clear();
    uploading.clear();
    if (jobs.ok) for (const job of jobs.value as JobInfo[]) if (job.state === 'submitting') submitting.add(job.localId);
    if (uploads.ok)
      for (const upload of uploads.value as UploadInfo[]) if (upload.state === 'uploading') uploading.add(upload.id);
    activeDownloads = downloads.ok ? (downloads.value as DownloadsInfo).queue.active : 0;
    changed();
  }

  const stop = core.events.subscribe((event, payload) => {
    if (event === 'jobs:changed') {
      const job = payload as JobInfo;
      if (track(submitting, job.localId, job.state === 'submitting')) changed();
    } else if (event === 'uploads:changed') {
      const upload = payload as UploadInfo;
      if (track(uploading, upload.id, upload.state === 'uploading')) changed();
    } else if (event === 'downloads:changed') {
      const active = (payload as DownloadsChangedInfo).queue.active;
      if (active !== activeDownloads) {
        activeDownloads = active;
        changed();
      }
    } else if (event === 'library:move-progress') {
      const moving = MOVING.has((payload as LibraryMoveInfo).state);
      if (moving !== libraryMove) {
        libraryMove = moving;
        changed();
      }
    } else if (event === 'account:changed') {
      // Another account's engines: forget this one's work and read the new one's.
      submitting.clear();
      uploading.clear();
      activeDownloads = 0;
      changed();
      void refresh().catch(() => {});
    }
  });

  return {
    current: (): InFlight => ({
      submissions: submitting.size,
      uploads: uploading.size,
      downloads: activeDownloads,
      libraryMove,
    }),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    refresh,
    close() {
      closed = true;
      stop();
      listeners.clear();
    },
  };
}

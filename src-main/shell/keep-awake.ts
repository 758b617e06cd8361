// While jobs are in flight or files are moving, the OS must not suspend the app (timers of the
// status checks and downloads would stop): one 'prevent-app-suspension' blocker, held only
// while busy and released as soon as nothing is left. The display may still sleep.
import type { QueueCountsInfo } from '../contract/ipc/shell.ts';

/** The part of Electron's powerSaveBlocker this uses. */
export interface PowerSaveBlockerLike {
  start(type: 'prevent-app-suspension'): number;
  stop(id: number): void;
}

export interface KeepAwake {
  /** The engine's queue counts (queued + running jobs are in flight). */
  setJobs(counts: QueueCountsInfo): void;
  /** Whether uploads or downloads are moving (the taskbar progress is shown). */
  setTransfers(active: boolean): void;
  busy(): boolean;
  /** Releases the blocker for good (quit). */
  stop(): void;
}

const inFlight = (counts: QueueCountsInfo): boolean =>
  (Number.isFinite(counts.queued) && counts.queued > 0) || (Number.isFinite(counts.running) && counts.running > 0);

export function keepAwakeWhileBusy(blocker: PowerSaveBlockerLike): KeepAwake {
  let jobs = false;
  let transfers = false;
  let id: number | null = null;
  let stopped = false;
  const apply = (): void => {
    const want = !stopped && (jobs || transfers);
    if (want && id === null) id = blocker.start('prevent-app-suspension');
    else if (!want && id !== null) {
      blocker.stop(id);
      id = null;
    }
  };
  return {
    setJobs(counts) {
      jobs = inFlight(counts);
      apply();
    },
    setTransfers(active) {
      transfers = active;
      apply();
    },
    busy: () => jobs || transfers,
    stop() {
      stopped = true;
      apply();
    },
  };
}

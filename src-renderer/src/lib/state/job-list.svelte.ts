// The one list of this account's local jobs, newest first: loaded with 'jobs:list' and patched from
// every 'jobs:changed'. The queue dock, the Create results, the Jobs view and the viewer derive
// what they show from it; nothing else keeps a copy of a job.
import type { ErrorInfo } from '@contract/errors.ts';
import type { JobInfo } from '@contract/ipc/jobs.ts';
import { invoke, on } from '../ipc.ts';

export const JOB_LIST_LIMIT = 300;

const LIVE_STATES: ReadonlySet<JobInfo['state']> = new Set(['submitting', 'queued', 'running']);

export const isLive = (job: JobInfo): boolean => LIVE_STATES.has(job.state);
/** Failed or unknown and not sent again yet: the user has something to decide. */
export const needsAttention = (job: JobInfo): boolean =>
  (job.state === 'failed' || job.state === 'unknown') && job.resubmittedAs === null;

class JobList {
  items = $state.raw<JobInfo[]>([]);
  loading = $state(false);
  loaded = $state(false);
  error = $state<ErrorInfo | null>(null);

  /** Reads the list again from the core; resolves with it (null when the core refused). */
  async load(): Promise<JobInfo[] | null> {
    this.loading = true;
    const result = await invoke('jobs:list', { limit: JOB_LIST_LIMIT });
    this.loading = false;
    if (!result.ok) {
      this.error = result.error;
      return null;
    }
    this.error = null;
    this.loaded = true;
    this.#set([...result.value]);
    return this.items;
  }

  /**
   * Inserts or replaces one job (by localId). A request's row that now follows a job found on the
   * service replaces that job's own (unattributed) entry: one service job, one row.
   */
  upsert(job: JobInfo): void {
    const replaced = (j: JobInfo) =>
      j.localId === job.localId || (j.unattributed && !job.unattributed && job.jobId !== null && j.jobId === job.jobId);
    this.#set([job, ...this.items.filter((j) => !replaced(j))]);
  }

  find(localId: number): JobInfo | undefined {
    return this.items.find((j) => j.localId === localId);
  }

  listen(): () => void {
    return on('jobs:changed', (job) => this.upsert(job));
  }

  /** Forgets everything (another account was opened). */
  reset(): void {
    this.items = [];
    this.loaded = false;
    this.error = null;
  }

  #set(list: JobInfo[]): void {
    this.items = list.sort((a, b) => b.createdAt - a.createdAt).slice(0, JOB_LIST_LIMIT);
  }
}

export const jobList = new JobList();

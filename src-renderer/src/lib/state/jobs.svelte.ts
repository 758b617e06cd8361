// The Jobs view's local jobs: live ones (kind, model, prompt, status, elapsed), failed and unknown
// ones with their reason and a one-click resubmit, and recent finished ones with their outputs.
import type { ErrorInfo } from '@contract/errors.ts';
import type { JobInfo } from '@contract/ipc/jobs.ts';
import { invoke, on } from '../ipc.ts';
import { isLive, queue } from './queue.svelte.ts';
import { serviceReach } from './service-reach.svelte.ts';
import { toasts } from './toasts.svelte.ts';

const LIST_LIMIT = 300;

const needsAttention = (job: JobInfo): boolean =>
  (job.state === 'failed' || job.state === 'unknown') && job.resubmittedAs === null;

class JobsState {
  items = $state.raw<JobInfo[]>([]);
  loading = $state(false);
  error = $state<ErrorInfo | null>(null);
  resubmitting = $state<ReadonlySet<number>>(new Set());

  readonly live = $derived(this.items.filter(isLive));
  readonly attention = $derived(this.items.filter(needsAttention));
  readonly recent = $derived(this.items.filter((j) => !isLive(j) && !needsAttention(j)));

  async load(): Promise<void> {
    this.loading = true;
    const result = await invoke('jobs:list', { limit: LIST_LIMIT });
    this.loading = false;
    if (result.ok) {
      this.items = result.value;
      this.error = null;
    } else {
      this.error = result.error;
    }
  }

  upsert(job: JobInfo): void {
    const others = this.items.filter((j) => j.localId !== job.localId);
    this.items = [job, ...others].sort((a, b) => b.createdAt - a.createdAt).slice(0, LIST_LIMIT);
  }

  /** Sends a failed or unknown job's exact request again as a new job. */
  async resubmit(job: JobInfo): Promise<void> {
    if (this.resubmitting.has(job.localId)) return;
    this.resubmitting = new Set([...this.resubmitting, job.localId]);
    try {
      const result = await invoke('jobs:resubmit', { localId: job.localId });
      if (!result.ok) {
        serviceReach.noteError(result.error);
        toasts.error(result.error.message);
        return;
      }
      this.upsert(result.value);
      queue.upsert(result.value);
      const refreshed = await invoke('jobs:get', { localId: job.localId });
      if (refreshed.ok) this.upsert(refreshed.value);
      toasts.info('Sent again as a new job.');
    } finally {
      const next = new Set(this.resubmitting);
      next.delete(job.localId);
      this.resubmitting = next;
    }
  }

  listen(): () => void {
    return on('jobs:changed', (job) => this.upsert(job));
  }
}

export const jobs = new JobsState();

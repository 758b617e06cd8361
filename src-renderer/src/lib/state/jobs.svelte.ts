// The Jobs view's local jobs: live ones (kind, model, prompt, status, elapsed), failed and unknown
// ones with their reason and a one-click resubmit, and recent finished ones with their outputs.
import type { ErrorInfo, Result } from '@contract/errors.ts';
import type { AssetInfo } from '@contract/ipc/assets.ts';
import type { JobInfo } from '@contract/ipc/jobs.ts';
import { invoke, on } from '../ipc.ts';
import { assetKey, type AssetKey } from '../library/asset-key.ts';
import { withEntries, withMember } from '../library/collections.ts';
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
  /** Library rows of job outputs (for their thumbnails and the asset view). */
  outputs = $state.raw<ReadonlyMap<AssetKey, AssetInfo>>(new Map());

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
    this.resubmitting = withMember(this.resubmitting, job.localId, true);
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
      this.resubmitting = withMember(this.resubmitting, job.localId, false);
    }
  }

  /** Fetches the library rows of these jobs' outputs (once each; again when `refresh`). */
  async loadOutputs(list: readonly JobInfo[], refresh = false): Promise<void> {
    const refs = list
      .flatMap((job) => job.outputs)
      .map((o) => ({ kind: o.kind, id: o.id }))
      .filter((ref) => refresh || !this.outputs.has(assetKey(ref)));
    if (refs.length === 0) return;
    const results = await Promise.all(refs.map((ref) => invoke('assets:get', ref)));
    this.#storeOutputs(results);
  }

  #storeOutputs(results: Result<AssetInfo>[]): void {
    const found = results.flatMap((result) => (result.ok ? [[assetKey(result.value), result.value] as const] : []));
    this.outputs = withEntries(this.outputs, found);
  }

  outputAssets(job: JobInfo): AssetInfo[] {
    return job.outputs.flatMap((o) => this.outputs.get(assetKey({ kind: o.kind, id: o.id })) ?? []);
  }

  listen(): () => void {
    const stops = [
      on('jobs:changed', (job) => this.upsert(job)),
      on('assets:changed', (change) => {
        const known = (change.assets ?? []).filter((ref) => this.outputs.has(assetKey(ref)));
        if (known.length === 0) return;
        void Promise.all(known.map((ref) => invoke('assets:get', ref))).then((results) => {
          this.#storeOutputs(results);
        });
      }),
    ];
    return () => stops.forEach((stop) => stop());
  }
}

export const jobs = new JobsState();

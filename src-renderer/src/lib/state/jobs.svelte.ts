// The Jobs view's sections of the one job list (job-list.svelte.ts): live ones (kind, model, prompt,
// status, elapsed), failed and unknown ones with their reason and a one-click resubmit, and recent
// finished ones with their outputs.
import type { Result } from '@contract/errors.ts';
import type { AssetInfo } from '@contract/ipc/assets.ts';
import type { JobInfo } from '@contract/ipc/jobs.ts';
import { invoke, on } from '../ipc.ts';
import { assetKey, type AssetKey } from '../library/asset-key.ts';
import { withEntries, withMember } from '../library/collections.ts';
import { isLive, jobList, needsAttention } from './job-list.svelte.ts';
import { serviceReach } from './service-reach.svelte.ts';
import { toasts } from './toasts.svelte.ts';

class JobsState {
  resubmitting = $state<ReadonlySet<number>>(new Set());
  /** Rows with an "attribute" or "cancel resend" request under way. */
  deciding = $state<ReadonlySet<number>>(new Set());
  /** Library rows of job outputs (for their thumbnails and the asset view). */
  outputs = $state.raw<ReadonlyMap<AssetKey, AssetInfo>>(new Map());

  readonly live = $derived(jobList.items.filter((j) => !j.unattributed && isLive(j)));
  readonly attention = $derived(jobList.items.filter((j) => !j.unattributed && needsAttention(j)));
  readonly recent = $derived(jobList.items.filter((j) => !j.unattributed && !isLive(j) && !needsAttention(j)));
  /** Jobs found on the service that could not be tied to one of this app's requests. */
  readonly unattributed = $derived(jobList.items.filter((j) => j.unattributed));

  /** The user's confirmed "This is it": the found job `jobLocalId` is `row`'s. True when it worked. */
  async attribute(row: JobInfo, jobLocalId: number): Promise<boolean> {
    return this.#decide(row.localId, async () => {
      const result = await invoke('jobs:attribute', { jobLocalId, rowLocalId: row.localId });
      if (!result.ok) {
        toasts.error(result.error.message);
        return false;
      }
      // The found job's own entry is gone (the request's row follows it now): list again.
      await jobList.load();
      toasts.info('Tied to your request: its prompt and settings now apply to the job’s outputs.');
      return true;
    });
  }

  /** Stops a waiting request from being sent again on its own. */
  async cancelResend(job: JobInfo): Promise<void> {
    await this.#decide(job.localId, async () => {
      const result = await invoke('jobs:cancel-resend', { localId: job.localId });
      if (!result.ok) toasts.error(result.error.message);
      else jobList.upsert(result.value);
      return result.ok;
    });
  }

  async #decide(localId: number, work: () => Promise<boolean>): Promise<boolean> {
    if (this.deciding.has(localId)) return false;
    this.deciding = withMember(this.deciding, localId, true);
    try {
      return await work();
    } finally {
      this.deciding = withMember(this.deciding, localId, false);
    }
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
      jobList.upsert(result.value);
      const refreshed = await invoke('jobs:get', { localId: job.localId });
      if (refreshed.ok) jobList.upsert(refreshed.value);
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

  /** Keeps the shown outputs' library rows fresh (the job rows themselves live in jobList). */
  listen(): () => void {
    return on('assets:changed', (change) => {
      const known = (change.assets ?? []).filter((ref) => this.outputs.has(assetKey(ref)));
      if (known.length === 0) return;
      void Promise.all(known.map((ref) => invoke('assets:get', ref))).then((results) => {
        this.#storeOutputs(results);
      });
    });
  }
}

export const jobs = new JobsState();

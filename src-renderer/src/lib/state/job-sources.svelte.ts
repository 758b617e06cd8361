// The images upscales are made from, as the library holds them: what names an upscale on every
// screen ("Upscale of “a heron at dawn”") and what it shows while it is made (the source's
// thumbnail). Each is read once from the core's cache, and again when the library says it changed.
import type { AssetInfo } from '@contract/ipc/assets.ts';
import type { JobInfo } from '@contract/ipc/jobs.ts';
import { jobTitle } from '@contract/job-title.ts';
import { SvelteMap } from 'svelte/reactivity';
import { accountBound } from '../account-scope.ts';
import { invoke, on } from '../ipc.ts';

class JobSources {
  /** Image id → its library record (null: not in the library). */
  #found = new SvelteMap<string, AssetInfo | null>();
  // Bookkeeping only (never shown), so a plain Set.
  #asked = new Set<string>();

  constructor() {
    accountBound<JobSources>(this, () => ({}), { reset: () => this.reset() });
  }

  /** The image an upscale job was made from, once read; null for other jobs, or while unknown. */
  of(job: Pick<JobInfo, 'kind' | 'sourceImageId'>): AssetInfo | null {
    const id = job.kind === 'upscale' ? job.sourceImageId : null;
    if (!id) return null;
    if (!this.#asked.has(id)) {
      this.#asked.add(id);
      // Read after the caller's render: the answer lands in the map, which the caller follows.
      queueMicrotask(() => void this.#read(id));
    }
    return this.#found.get(id) ?? null;
  }

  /** What the job is called everywhere: its prompt, or for an upscale "Upscale of “<its source's prompt>”". */
  title(job: Pick<JobInfo, 'kind' | 'sourceImageId' | 'prompt'>): string {
    return jobTitle(job, this.of(job)?.prompt ?? null);
  }

  async #read(id: string): Promise<void> {
    const result = await invoke('assets:get', { kind: 'image', id });
    if (!this.#asked.has(id)) return;
    this.#found.set(id, result.ok ? result.value : null);
  }

  /** A source downloaded (its thumbnail made), deleted or renamed by a refresh is read again. */
  listen(): () => void {
    return on('assets:changed', (change) => {
      for (const id of this.#asked) {
        if (!change.assets || change.assets.some((ref) => ref.kind === 'image' && ref.id === id)) void this.#read(id);
      }
    });
  }

  /** Forgets everything (another account was opened). */
  reset(): void {
    this.#asked.clear();
    this.#found.clear();
  }
}

export const jobSources = new JobSources();

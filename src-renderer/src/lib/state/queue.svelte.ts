// Live and recent jobs for the queue dock, the Create panels' results and the status bar's counts.
// Rows come from 'jobs:list' and every 'jobs:changed'; the engine's own counts from 'queue:counts'.
import type { JobInfo } from '@contract/ipc/jobs.ts';
import type { QueueCountsInfo } from '@contract/ipc/shell.ts';
import { invoke, on } from '../ipc.ts';

const LIVE_STATES: ReadonlySet<JobInfo['state']> = new Set(['submitting', 'queued', 'running']);
const RECENT_LIMIT = 100;

export const isLive = (job: JobInfo): boolean => LIVE_STATES.has(job.state);

class QueueState {
  items = $state<JobInfo[]>([]);
  dockOpen = $state(false);
  /** The engine's own count of queued and running jobs, once it has said anything. */
  counts = $state<QueueCountsInfo | null>(null);
  /** Finished jobs the user cleared from the dock (they stay in Jobs). */
  #hidden = $state<ReadonlySet<number>>(new Set());

  readonly live = $derived(this.items.filter(isLive));
  readonly inFlight = $derived(
    this.counts ? Math.max(this.counts.queued + this.counts.running, this.live.length) : this.live.length,
  );
  /** What the dock lists: everything live, plus finished jobs not cleared yet. */
  readonly docked = $derived(this.items.filter((j) => isLive(j) || !this.#hidden.has(j.localId)));

  async load(): Promise<void> {
    const result = await invoke('jobs:list', { limit: RECENT_LIMIT });
    // Jobs that finished before this session are history: keep them out of the dock.
    if (result.ok) {
      this.#hidden = new Set(result.value.filter((j) => !isLive(j)).map((j) => j.localId));
      for (const job of result.value) this.upsert(job);
    }
  }

  listen(): () => void {
    const stops = [
      on('queue:counts', (counts) => (this.counts = counts)),
      on('jobs:changed', (job) => this.upsert(job)),
    ];
    return () => stops.forEach((stop) => stop());
  }

  toggleDock(): void {
    this.dockOpen = !this.dockOpen;
  }

  /** Insert or replace one job (by localId); newest first. */
  upsert(job: JobInfo): void {
    const others = this.items.filter((j) => j.localId !== job.localId);
    this.items = [job, ...others].sort((a, b) => b.createdAt - a.createdAt).slice(0, RECENT_LIMIT);
  }

  dismissFinished(): void {
    this.#hidden = new Set([...this.#hidden, ...this.items.filter((j) => !isLive(j)).map((j) => j.localId)]);
  }

  /** Forget everything (another account was opened). */
  reset(): void {
    this.items = [];
    this.counts = null;
    this.#hidden = new Set();
  }
}

export const queue = new QueueState();

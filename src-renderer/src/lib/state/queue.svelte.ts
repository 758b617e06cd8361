// Live jobs for the queue dock and the status bar's counts. The counts come from the core's 'queue:counts';
// the job rows are fed by the core's job events once that channel is in the contract. The dock's
// open/closed state lives here too.
import type { QueueCountsInfo } from '@contract/ipc/shell.ts';
import { on } from '../ipc.ts';

export interface QueueItem {
  localId: number;
  kind: 'image' | 'video' | 'upscale';
  modelId: string | null;
  prompt: string | null;
  state: 'submitting' | 'queued' | 'running' | 'succeeded' | 'failed' | 'unknown';
  error: string | null;
  /** Epoch ms: the dock shows elapsed time from here. */
  createdAt: number;
  /** 0..1 when the service reports it; undefined while unknown. */
  progress?: number;
}

const LIVE_STATES: ReadonlySet<QueueItem['state']> = new Set(['submitting', 'queued', 'running']);

class QueueState {
  items = $state<QueueItem[]>([]);
  dockOpen = $state(false);
  /** Downloads in progress, for the status bar. */
  downloads = $state(0);

  /** The engine's own count of queued and running jobs, once it has said anything. */
  counts = $state<QueueCountsInfo | null>(null);

  readonly live = $derived(this.items.filter((j) => LIVE_STATES.has(j.state)));
  readonly inFlight = $derived(
    this.counts ? Math.max(this.counts.queued + this.counts.running, this.live.length) : this.live.length,
  );

  listen(): () => void {
    return on('queue:counts', (counts) => {
      this.counts = counts;
    });
  }

  toggleDock(): void {
    this.dockOpen = !this.dockOpen;
  }

  /** Insert or replace one job (by localId); newest first. */
  upsert(item: QueueItem): void {
    const others = this.items.filter((j) => j.localId !== item.localId);
    this.items = [item, ...others].sort((a, b) => b.createdAt - a.createdAt);
  }

  dismissFinished(): void {
    this.items = this.items.filter((j) => LIVE_STATES.has(j.state));
  }
}

export const queue = new QueueState();

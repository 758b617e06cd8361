// The queue dock and the status bar's counts, derived from the one job list (job-list.svelte.ts);
// the engine's own counts come from 'queue:counts'.
// The queue stays out of the way: counts by state in the status bar, the full list only on demand,
// finished rows folded away a few seconds after they end, and a submission can be taken back in the
// moment before it is sent.
import { accountScope } from '../account-scope.ts';
import type { JobKindInfo } from '@contract/ipc/jobs.ts';
import type { QueueCountsInfo } from '@contract/ipc/shell.ts';
import { on } from '../ipc.ts';
import { isLive, jobList, needsAttention } from './job-list.svelte.ts';
import { trainingJobs } from './training-jobs.svelte.ts';

export { isLive } from './job-list.svelte.ts';

/** A finished job that needs nothing from the user stays in the list this long, then folds away. */
export const FOLD_AFTER_MS = 6_000;
/** How long a submission waits before it is sent, so it can be cancelled. */
export const SEND_DELAY_MS = 2_000;

/** A submission not sent yet: it goes at `sendAt` unless cancelled. */
export interface PendingSend {
  id: number;
  kind: JobKindInfo;
  prompt: string;
  modelId: string;
  sendAt: number;
}

export interface QueueCountsByState {
  sending: number;
  queued: number;
  running: number;
  done: number;
  failed: number;
}

class QueueState {
  /** The full list, opened on demand only. */
  dockOpen = $state(false);
  /** The engine's own count of queued and running jobs, once it has said anything. */
  counts = $state<QueueCountsInfo | null>(null);
  pending = $state<PendingSend[]>([]);
  /** Ticks while something may fold away or count down. */
  now = $state(Date.now());
  /** Finished jobs the user cleared from the queue, or that finished before this session (they stay in Jobs). */
  #hidden = $state<ReadonlySet<number>>(new Set());
  #timers = new Map<number, ReturnType<typeof setTimeout>>();
  #nextPendingId = 1;

  constructor() {
    accountScope.bind({ reset: () => this.reset(), reload: () => this.load() });
  }

  readonly live = $derived(jobList.items.filter(isLive));
  /** Jobs and trainings in flight. */
  readonly inFlight = $derived(
    this.counts
      ? Math.max(this.counts.queued + this.counts.running, this.live.length) +
          Math.max(this.counts.training ?? 0, trainingJobs.running)
      : this.live.length + trainingJobs.running,
  );
  /** What the list shows: everything live, failures until cleared, other finished jobs for a few seconds. */
  readonly docked = $derived(
    jobList.items.filter(
      (j) =>
        isLive(j) ||
        (!this.#hidden.has(j.localId) && (needsAttention(j) || this.now - (j.finishedAt ?? 0) < FOLD_AFTER_MS)),
    ),
  );
  readonly byState: QueueCountsByState = $derived.by(() => {
    const shown = this.docked;
    return {
      sending: this.pending.length + shown.filter((j) => j.state === 'submitting').length,
      queued: shown.filter((j) => j.state === 'queued').length,
      // A model training is a job running like the others.
      running: shown.filter((j) => j.state === 'running').length + trainingJobs.running,
      done: shown.filter((j) => j.state === 'succeeded').length,
      failed: shown.filter((j) => j.state === 'failed' || j.state === 'unknown').length,
    };
  });

  /** Loads the job list; jobs that finished before this session are history: kept out of the queue. */
  async load(): Promise<void> {
    void trainingJobs.load();
    const list = await jobList.load();
    if (list) this.#hidden = new Set(list.filter((j) => !isLive(j)).map((j) => j.localId));
  }

  listen(): () => void {
    const tick = setInterval(() => (this.now = Date.now()), 1000);
    const stops = [on('queue:counts', (counts) => (this.counts = counts)), jobList.listen(), trainingJobs.listen()];
    return () => {
      clearInterval(tick);
      stops.forEach((stop) => stop());
    };
  }

  toggleDock(): void {
    this.dockOpen = !this.dockOpen;
  }

  /** Holds a submission for SEND_DELAY_MS, then runs `send`; cancel() in between drops it. */
  hold(entry: Omit<PendingSend, 'id' | 'sendAt'>, send: () => Promise<void>): Promise<void> {
    const id = this.#nextPendingId++;
    this.pending = [...this.pending, { ...entry, id, sendAt: Date.now() + SEND_DELAY_MS }];
    return new Promise((resolve) => {
      this.#timers.set(
        id,
        setTimeout(() => {
          this.#timers.delete(id);
          this.pending = this.pending.filter((p) => p.id !== id);
          void send().finally(resolve);
        }, SEND_DELAY_MS),
      );
    });
  }

  /** Takes back a submission that was not sent yet; false when it already went. */
  cancel(id: number): boolean {
    const timer = this.#timers.get(id);
    if (timer === undefined) return false;
    clearTimeout(timer);
    this.#timers.delete(id);
    this.pending = this.pending.filter((p) => p.id !== id);
    return true;
  }

  dismissFinished(): void {
    this.#hidden = new Set([...this.#hidden, ...jobList.items.filter((j) => !isLive(j)).map((j) => j.localId)]);
  }

  /** Forget everything (another account was opened); submissions not sent yet are dropped. */
  reset(): void {
    for (const id of [...this.#timers.keys()]) this.cancel(id);
    jobList.reset();
    trainingJobs.reset();
    this.counts = null;
    this.#hidden = new Set();
  }
}

export const queue = new QueueState();

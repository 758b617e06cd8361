// What the engine tells the rest of the app about jobs: one jobs:changed per changed job, and
// queue:counts whenever the numbers of queued and running jobs change.
import type { EventBus } from '../events.ts';
import { jobInfoOf } from './job-info.ts';
import type { JobRow, JobsRepo } from '../db/repos/jobs-repo.ts';

export interface JobEvents {
  /** One job changed: its event, then the counts if they moved. */
  changed(row: JobRow): void;
  /** The counts, if they moved since last said. */
  counts(): void;
}

export function jobEvents(store: JobsRepo, events: EventBus): JobEvents {
  let lastCounts = '';
  const counts = (): void => {
    const now = store.counts();
    const payload = { queued: now.submitting + now.queued, running: now.running };
    const text = JSON.stringify(payload);
    if (text === lastCounts) return;
    lastCounts = text;
    events.emit('queue:counts', payload);
  };
  return {
    changed(row) {
      events.emit('jobs:changed', jobInfoOf(store, row));
      counts();
    },
    counts,
  };
}

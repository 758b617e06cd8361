// The service's own job history (GET /jobs): a date range of at most seven days, refused here
// before any call when longer, then pages by pageToken with the credits each job cost.
import { accountBound } from '../account-scope.ts';
import type { ErrorInfo } from '@contract/errors.ts';
import type { JobSummaryInfo } from '@contract/ipc/jobs.ts';
import { invoke } from '../ipc.ts';
import { DAY_MS, localDay } from '../library/format.ts';
import { HISTORY_MAX_DAYS, historyRange, pickerBounds } from '../library/history-range.ts';
import { serviceReach } from './service-reach.svelte.ts';

class JobsHistoryState {
  fromDay = $state(localDay(Date.now() - (HISTORY_MAX_DAYS - 1) * DAY_MS));
  toDay = $state(localDay(Date.now()));
  jobs = $state.raw<JobSummaryInfo[]>([]);
  nextPageToken = $state<string | null>(null);
  loading = $state(false);
  error = $state<ErrorInfo | null>(null);
  /** The range the shown rows belong to; null before the first search. */
  shownRange = $state<{ from: string; to: string } | null>(null);
  /** The times the page token belongs to: later pages must repeat them, whatever the picker says now. */
  #pageRange: { start: string; end: string } | null = null;

  constructor() {
    accountBound<JobsHistoryState>(
      this,
      () => ({ jobs: [], nextPageToken: null, loading: false, error: null, shownRange: null }),
      {
        reset: () => (this.#pageRange = null),
      },
    );
  }

  readonly range = $derived(historyRange(this.fromDay, this.toDay));
  readonly problem = $derived(this.range.ok ? null : this.range.problem);
  readonly bounds = $derived(pickerBounds(this.fromDay, this.toDay));
  readonly credits = $derived(this.jobs.reduce((sum, job) => sum + (job.credits ?? 0), 0));

  /** Loads the first page for the chosen range; a range over seven days never leaves the renderer. */
  async search(): Promise<void> {
    const range = this.range;
    if (!range.ok || this.loading) return;
    this.loading = true;
    this.error = null;
    try {
      const result = await invoke('jobs:history', { start: range.start, end: range.end });
      if (!result.ok) {
        serviceReach.noteError(result.error);
        this.error = result.error;
        return;
      }
      this.jobs = result.value.jobs;
      this.nextPageToken = result.value.nextPageToken || null;
      this.shownRange = { from: this.fromDay, to: this.toDay };
      this.#pageRange = { start: range.start, end: range.end };
    } finally {
      this.loading = false;
    }
  }

  async loadMore(): Promise<void> {
    const range = this.#pageRange;
    const token = this.nextPageToken;
    if (!range || !token || this.loading) return;
    this.loading = true;
    try {
      const result = await invoke('jobs:history', { start: range.start, end: range.end, pageToken: token });
      if (!result.ok) {
        serviceReach.noteError(result.error);
        this.error = result.error;
        return;
      }
      this.jobs = [...this.jobs, ...result.value.jobs];
      this.nextPageToken = result.value.nextPageToken || null;
    } finally {
      this.loading = false;
    }
  }
}

export const jobsHistory = new JobsHistoryState();

// Start-up (and lost-answer) reconciliation of rows left 'submitting': list the service's jobs
// around each row's submit time, adopt the matching job, or mark the row 'unknown' once its
// window has closed with no match. Never resubmits; the user decides with jobs:resubmit.
import type { JobSummary } from '../../contract/service.ts';
import { isJobSuccess, JOB_LIST_RANGE_MS } from '../../contract/service.ts';
import { parseTime } from '../db/values.ts';
import { classifyFailure, errorInfoOf } from '../api/backoff.ts';
import type { EngineTime } from '../host/time.ts';
import { activeStateOf } from './job-info.ts';
import type { JobRow, JobsRepo } from '../db/repos/jobs-repo.ts';
import { matchSubmissions, type Candidate, type CandidateKind, type MatchWindow } from './reconcile-match.ts';
import { checkJob, checkJobsPage, type JobsService } from './service-port.ts';

export const RECONCILE_WINDOW: MatchWindow = { beforeMs: 2 * 60_000, afterMs: 3 * 60_000 };
/** Kinds are looked up (GET /jobs/{id}) for at most this many candidates per pass. */
const MAX_KIND_LOOKUPS = 20;
const MAX_PAGES = 20;

export const UNKNOWN_MESSAGE =
  'Atelier could not confirm that the service received this job (the app was closed or the answer was lost, and no matching job was found). It may not have been sent: send it again if you still want it.';

export interface ReconcileDeps {
  store: JobsRepo;
  service: JobsService;
  time: EngineTime;
  signal?: AbortSignal;
  changed(row: JobRow): void;
  /** Counts requests for the tick report. */
  counted(): void;
}

export interface ReconcileResult {
  adopted: number;
  unknown: number;
  /** Rows still inside their window with no match yet: check again at this time. */
  retryAt: number | null;
}

const iso = (ms: number): string => new Date(ms).toISOString();

/** Rows grouped so each group's list range stays within the service's 7-day limit. */
function groupsByRange(rows: JobRow[], window: MatchWindow): JobRow[][] {
  const limit = JOB_LIST_RANGE_MS.max - window.beforeMs - window.afterMs - 60_000;
  const groups: JobRow[][] = [];
  for (const row of [...rows].sort((a, b) => a.created_at - b.created_at)) {
    const group = groups.at(-1);
    if (group && row.created_at - group[0]!.created_at <= limit) group.push(row);
    else groups.push([row]);
  }
  return groups;
}

export async function reconcileSubmissions(
  rows: JobRow[],
  deps: ReconcileDeps,
  window = RECONCILE_WINDOW,
  /** GET /jobs summaries already read over a range covering every row's window (the jobs loop's one listing of the pass). */
  listing?: JobSummary[],
): Promise<ReconcileResult> {
  const { store, service, time } = deps;
  const result: ReconcileResult = { adopted: 0, unknown: 0, retryAt: null };
  for (const group of groupsByRange(rows, window)) {
    const now = time.now();
    const start = group[0]!.created_at - window.beforeMs;
    const end = Math.min(group.at(-1)!.created_at + window.afterMs, Math.max(now, start + 1));
    const summaries: JobSummary[] = listing ? [...listing] : [];
    let pages = 0;
    if (!listing)
      for await (const page of service.jobPages({ start: iso(start), end: iso(end) }, deps.signal)) {
        deps.counted();
        summaries.push(...checkJobsPage(page).jobs);
        pages += 1;
        if (pages >= MAX_PAGES) break;
      }
    const known = store.knownJobIds(summaries.map((s) => s.jobId));
    const fresh = summaries.filter((s) => !known.has(s.jobId));
    const candidates: Candidate[] = [];
    const statusOf = new Map<string, { status: string; createdAt: number }>();
    for (const summary of fresh) {
      const createdAt = parseTime(summary.createdAt);
      if (createdAt === null) continue;
      const near = group.some(
        (row) => createdAt >= row.created_at - window.beforeMs && createdAt <= row.created_at + window.afterMs,
      );
      if (!near) continue;
      candidates.push({ jobId: summary.jobId, createdAt, kind: null });
      statusOf.set(summary.jobId, { status: summary.status, createdAt });
    }
    // The list has no kind; a finished job's record shows what it made. Bounded: reconciliation is rare.
    for (const candidate of candidates.slice(0, MAX_KIND_LOOKUPS)) {
      deps.counted();
      try {
        candidate.kind = kindOfRecord(checkJob(await service.getJob(candidate.jobId, deps.signal), candidate.jobId));
      } catch (error) {
        // Only a sick service stops the pass; a record that cannot be read just leaves the kind unknown.
        const kind = classifyFailure(errorInfoOf(error));
        if (kind === 'transient' || kind === 'rate_limited' || kind === 'auth' || deps.signal?.aborted) throw error;
      }
    }
    const matches = matchSubmissions(
      group.map((row) => ({ localId: row.local_id, kind: row.kind, createdAt: row.created_at })),
      candidates,
      window,
    );
    const after = time.now();
    for (const row of group) {
      const current = store.get(row.local_id);
      if (!current || current.state !== 'submitting') continue;
      const jobId = matches.get(row.local_id);
      if (jobId !== undefined) {
        const seen = statusOf.get(jobId)!;
        store.update(
          row.local_id,
          {
            jobId,
            // A job that already ended is fetched by the poller on its next round.
            state: activeStateOf(seen.status),
            serviceStatus: seen.status,
            error: null,
            submittedAt: row.created_at,
            serviceCreatedAt: seen.createdAt,
            nextPollAt: after,
            attempts: 0,
          },
          after,
        );
        result.adopted += 1;
        deps.changed(store.mustGet(row.local_id));
      } else if (after >= row.created_at + window.afterMs) {
        store.update(row.local_id, { state: 'unknown', error: UNKNOWN_MESSAGE, nextPollAt: null }, after);
        result.unknown += 1;
        deps.changed(store.mustGet(row.local_id));
      } else {
        const retry = row.created_at + window.afterMs;
        result.retryAt = result.retryAt === null ? retry : Math.min(result.retryAt, retry);
      }
    }
  }
  return result;
}

function kindOfRecord(job: { status: string; images?: unknown[]; videos?: unknown[] }): CandidateKind {
  if (job.videos && job.videos.length > 0) return 'video';
  if (job.images && job.images.length > 0) return 'image';
  return isJobSuccess(job.status) ? 'other' : null;
}

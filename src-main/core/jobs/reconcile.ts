// Reconciliation of rows left 'submitting' (a lost POST answer, a restart): list the service's jobs
// around each row's latest POST and, once the row's window has closed, decide with
// reconcile-match.ts: tie the one job that can only be this row's; send again what certainly
// never arrived (nothing in the window); otherwise keep each candidate as a job found on the
// service that could not be tied to a request (its own row, no request, polled to its end) and
// mark the row "may have been sent" (the user can say which job is its own).
import type { JobSummary } from '../../contract/service.ts';
import { isJobSuccess, isJobTerminal, JOB_LIST_RANGE_MS } from '../../contract/service.ts';
import { parseTime } from '../db/values.ts';
import { classifyFailure, errorInfoOf } from '../api/backoff.ts';
import type { EngineTime } from '../host/time.ts';
import { activeStateOf, outputsOf, requestOf } from './job-info.ts';
import type { JobRow, JobsRepo } from '../db/repos/jobs-repo.ts';
import {
  couldHaveSent,
  decideSubmissions,
  requestedCountOf,
  type Candidate,
  type CandidateKind,
  type MatchWindow,
  type PendingRow,
} from './reconcile-match.ts';
import { RESEND_MAX_AGE_MS } from './resend-policy.ts';
import { checkJob, checkJobsPage, type JobsService } from './service-port.ts';

export const RECONCILE_WINDOW: MatchWindow = { beforeMs: 2 * 60_000, afterMs: 3 * 60_000 };
/** Kinds are looked up (GET /jobs/{id}) for at most this many finished candidates per pass. */
const MAX_KIND_LOOKUPS = 20;
const MAX_PAGES = 20;

export const UNKNOWN_MESSAGE =
  'Atelier could not confirm that the service received this job (the app was closed or the answer was lost, and no matching job was found). It may not have been sent: send it again if you still want it.';
export const MAYBE_SENT_MESSAGE =
  'May have been sent: the service has a job from that moment that Atelier cannot tie to one request for sure. See the jobs found on the service, and choose "This is it" on the one that is this request’s.';
export const NEVER_ARRIVED_MESSAGE =
  'The service never received this request (its job list has nothing from that moment). Send it again if you still want it.';
export const RESEND_CANCELLED_MESSAGE =
  'Not sent: you cancelled sending it again, and the service never received the first try.';
export const RESENDING_MESSAGE = 'The service never received this request; sending it again.';

export interface ReconcileDeps {
  store: JobsRepo;
  service: JobsService;
  time: EngineTime;
  signal?: AbortSignal;
  changed(row: JobRow): void;
  /** Counts requests for the tick report. */
  counted(): void;
  /** Rows whose POST is under way in this process: possible senders, never decided. */
  isPosting?(localId: number): boolean;
  /** Sends a row again whose request certainly never arrived; without it such a row becomes 'unknown'. */
  resend?(row: JobRow): void;
}

export interface ReconcileResult {
  adopted: number;
  unknown: number;
  /** Rows marked "may have been sent" (their candidates kept as unattributed jobs). */
  ambiguous: number;
  /** Rows handed back to the outbox to be sent again. */
  resent: number;
  /** Rows still inside their window: check again at this time. */
  retryAt: number | null;
}

const iso = (ms: number): string => new Date(ms).toISOString();
export const sentAtOf = (row: Pick<JobRow, 'sent_at' | 'created_at'>): number => row.sent_at ?? row.created_at;

/** Rows grouped so each group's list range stays within the service's 7-day limit. */
function groupsByRange(rows: JobRow[], window: MatchWindow): JobRow[][] {
  const limit = JOB_LIST_RANGE_MS.max - window.beforeMs - window.afterMs - 60_000;
  const groups: JobRow[][] = [];
  for (const row of [...rows].sort((a, b) => sentAtOf(a) - sentAtOf(b))) {
    const group = groups.at(-1);
    if (group && sentAtOf(row) - sentAtOf(group[0]!) <= limit) group.push(row);
    else groups.push([row]);
  }
  return groups;
}

function pendingOf(row: JobRow): PendingRow {
  return {
    localId: row.local_id,
    kind: row.kind,
    createdAt: sentAtOf(row),
    requestedCount: requestedCountOf(row.kind, requestOf(row)),
  };
}

/**
 * `listing`: the service's jobs already fetched for this range (the poll round's listing), so no
 * second GET /jobs is made; without it the range is listed here.
 */
export async function reconcileSubmissions(
  rows: JobRow[],
  deps: ReconcileDeps,
  window = RECONCILE_WINDOW,
  listing?: readonly JobSummary[],
): Promise<ReconcileResult> {
  const { store, time } = deps;
  const result: ReconcileResult = { adopted: 0, unknown: 0, ambiguous: 0, resent: 0, retryAt: null };
  // A row waiting for a resend got a clear "not taken": the outbox sends it, nothing to check.
  const checkable = rows.filter((row) => row.resend_at === null && row.unattributed === 0);
  for (const group of groupsByRange(checkable, window)) {
    const now = time.now();
    const start = sentAtOf(group[0]!) - window.beforeMs;
    const end = Math.min(sentAtOf(group.at(-1)!) + window.afterMs, Math.max(now, start + 1));
    const listed = listing
      ? { summaries: listing.filter((s) => inRange(s, start, end)), complete: true }
      : await listRange(deps, start, end);
    // "Nothing arrived" is only said from a whole listing: a job left unread could be the row's.
    const complete = listed.complete && listed.summaries.every((s) => parseTime(s.createdAt) !== null);
    const candidates = await candidatesIn(deps, listed.summaries, start, end);
    const decidable = new Set(
      group
        .filter((row) => now >= sentAtOf(row) + window.afterMs && !deps.isPosting?.(row.local_id))
        .map((row) => row.local_id),
    );
    // Every row that may have sent one of these jobs, whoever sends it: decided ones and the rest.
    const senders = new Map<number, PendingRow>();
    for (const row of store.possibleSenders(start - window.afterMs, end + window.beforeMs))
      senders.set(row.local_id, { ...pendingOf(row), decidable: false });
    for (const row of group) senders.set(row.local_id, { ...pendingOf(row), decidable: decidable.has(row.local_id) });
    const pending = [...senders.values()];
    const decisions = decideSubmissions(pending, candidates.list, window);
    for (const row of group) {
      const decision = decisions.get(row.local_id);
      if (!decision || (decision.type === 'nothing' && !complete)) {
        // Open window: decided when it closes; a listing that was not whole: asked again in a minute.
        const retry = decision ? now + 60_000 : sentAtOf(row) + window.afterMs;
        result.retryAt = result.retryAt === null ? retry : Math.min(result.retryAt, retry);
        continue;
      }
      const after = time.now();
      const current = store.get(row.local_id);
      if (!current || current.state !== 'submitting' || current.job_id !== null) continue;
      if (decision.type === 'adopt' && !candidates.unattributed.has(decision.jobId)) {
        const seen = candidates.summaries.get(decision.jobId)!;
        adopt(store, row, decision.jobId, seen, after);
        result.adopted += 1;
        deps.changed(store.mustGet(row.local_id));
      } else if (decision.type === 'nothing') {
        if (current.resend_cancelled === 1) {
          store.update(
            row.local_id,
            {
              state: 'failed',
              error: RESEND_CANCELLED_MESSAGE,
              finishedAt: after,
              notifiedAt: after,
              nextPollAt: null,
            },
            after,
          );
          result.unknown += 1;
        } else if (deps.resend && after - sentAtOf(row) <= RESEND_MAX_AGE_MS + window.afterMs) {
          store.update(row.local_id, { resendAt: after, error: RESENDING_MESSAGE }, after);
          result.resent += 1;
          deps.resend(store.mustGet(row.local_id));
        } else {
          const message = deps.resend ? NEVER_ARRIVED_MESSAGE : UNKNOWN_MESSAGE;
          store.update(row.local_id, { state: 'unknown', error: message, nextPollAt: null }, after);
          result.unknown += 1;
        }
        deps.changed(store.mustGet(row.local_id));
      } else {
        const jobIds = decision.type === 'adopt' ? [decision.jobId] : decision.jobIds;
        keepUnattributed(deps, row, jobIds, candidates, pending, window, after);
        result.ambiguous += 1;
      }
    }
  }
  return result;
}

const inRange = (summary: JobSummary, start: number, end: number): boolean => {
  const at = parseTime(summary.createdAt);
  return at === null || (at >= start && at <= end);
};

async function listRange(
  deps: ReconcileDeps,
  start: number,
  end: number,
): Promise<{ summaries: JobSummary[]; complete: boolean }> {
  const summaries: JobSummary[] = [];
  let pages = 0;
  for await (const page of deps.service.jobPages({ start: iso(start), end: iso(end) }, deps.signal)) {
    deps.counted();
    summaries.push(...checkJobsPage(page).jobs);
    pages += 1;
    // Stopped early, the listing is not whole (only while more pages remain).
    if (pages >= MAX_PAGES) return { summaries, complete: false };
  }
  return { summaries, complete: true };
}

interface Candidates {
  list: Candidate[];
  /** Listed jobs no local row follows, by job id. */
  summaries: Map<string, { status: string; createdAt: number }>;
  /** Jobs already kept as unattributed, by job id. */
  unattributed: Map<string, JobRow>;
}

/** The jobs no request is tied to yet: listed ones no row follows, and those already kept as unattributed. */
async function candidatesIn(deps: ReconcileDeps, listed: JobSummary[], start: number, end: number) {
  const { store } = deps;
  const known = store.knownJobIds(listed.map((s) => s.jobId));
  const out: Candidates = { list: [], summaries: new Map(), unattributed: new Map() };
  const finished: Candidate[] = [];
  for (const summary of listed) {
    const createdAt = parseTime(summary.createdAt);
    if (createdAt === null || known.has(summary.jobId) || out.summaries.has(summary.jobId)) continue;
    const candidate: Candidate = { jobId: summary.jobId, createdAt, kind: null, outputCount: null };
    out.list.push(candidate);
    out.summaries.set(summary.jobId, { status: summary.status, createdAt });
    if (isJobSuccess(summary.status)) finished.push(candidate);
  }
  // The list has no kind; a finished job's record shows what it made. Bounded: reconciliation is rare.
  for (const candidate of finished.slice(0, MAX_KIND_LOOKUPS)) {
    deps.counted();
    try {
      const job = checkJob(await deps.service.getJob(candidate.jobId, deps.signal), candidate.jobId);
      candidate.kind = kindOfRecord(job);
      candidate.outputCount = candidate.kind === 'other' ? null : (job.videos?.length ?? 0) + (job.images?.length ?? 0);
    } catch (error) {
      // Only a sick service stops the pass; a record that cannot be read just leaves the kind unknown.
      const kind = classifyFailure(errorInfoOf(error));
      if (kind === 'transient' || kind === 'rate_limited' || kind === 'auth' || deps.signal?.aborted) throw error;
    }
  }
  for (const row of store.unattributedIn(start, end)) {
    if (row.job_id === null || row.service_created_at === null) continue;
    const outputs = outputsOf(row);
    const kind: CandidateKind = outputs.length > 0 ? outputs[0]!.kind : row.state === 'succeeded' ? 'other' : null;
    out.list.push({
      jobId: row.job_id,
      createdAt: row.service_created_at,
      kind,
      outputCount: outputs.length > 0 ? outputs.length : null,
    });
    out.unattributed.set(row.job_id, row);
  }
  return out;
}

function adopt(
  store: JobsRepo,
  row: JobRow,
  jobId: string,
  seen: { status: string; createdAt: number },
  now: number,
): void {
  store.update(
    row.local_id,
    {
      jobId,
      // A job that already ended is fetched by the poller on its next round.
      state: activeStateOf(seen.status),
      serviceStatus: seen.status,
      error: null,
      submittedAt: sentAtOf(row),
      serviceCreatedAt: seen.createdAt,
      nextPollAt: now,
      attempts: 0,
    },
    now,
  );
}

/**
 * The row "may have been sent"; each of its candidates is kept as a job of its own with every row
 * that may have sent it, unless one already is (then this row joins its possible senders).
 */
function keepUnattributed(
  deps: ReconcileDeps,
  row: JobRow,
  jobIds: readonly string[],
  candidates: Candidates,
  pending: readonly PendingRow[],
  window: MatchWindow,
  now: number,
): void {
  const { store } = deps;
  const touched: number[] = [];
  store.transaction(() => {
    store.update(row.local_id, { state: 'unknown', error: MAYBE_SENT_MESSAGE, nextPollAt: null }, now);
    for (const jobId of jobIds) {
      const candidate = candidates.list.find((c) => c.jobId === jobId)!;
      const senders = pending.filter((p) => couldHaveSent(p, candidate, window)).map((p) => p.localId);
      const existing = store.getByJobId(jobId);
      if (existing && existing.unattributed === 1) {
        const known = new Set<number>(JSON.parse(existing.candidate_rows ?? '[]') as number[]);
        senders.forEach((id) => known.add(id));
        store.update(existing.local_id, { candidateRows: [...known].sort((a, b) => a - b) }, now);
        touched.push(existing.local_id);
      } else if (!existing) {
        const seen = candidates.summaries.get(jobId)!;
        const senderKinds = pending.filter((p) => senders.includes(p.localId)).map((p) => p.kind);
        const kind =
          candidate.kind === 'video' || (candidate.kind === null && senderKinds.every((k) => k === 'video'))
            ? 'video'
            : 'image';
        const created = store.insertUnattributed({
          jobId,
          kind,
          state: isJobTerminal(seen.status) ? 'queued' : activeStateOf(seen.status),
          serviceStatus: seen.status,
          serviceCreatedAt: seen.createdAt,
          candidateRows: senders,
          now,
        });
        touched.push(created.local_id);
      }
    }
  });
  deps.changed(store.mustGet(row.local_id));
  for (const localId of touched) deps.changed(store.mustGet(localId));
}

function kindOfRecord(job: { status: string; images?: unknown[]; videos?: unknown[] }): CandidateKind {
  if (job.videos && job.videos.length > 0) return 'video';
  if (job.images && job.images.length > 0) return 'image';
  return isJobSuccess(job.status) ? 'other' : null;
}

// Which service job (from GET /jobs) a 'submitting' row created, when the answer to its POST was
// lost. Pure, so every case is tested (reconcile-match.test.ts, with a property test over random
// interleavings of sends, lost answers, kills and restarts).
//
// The service's job records carry no request fields (no prompt, no model), so a job is tied to a
// row ONLY when that is the one possible reading; nothing is ever paired by order:
// 1. A job can only have been created inside the window of the POST that made it: from `beforeMs`
//    before the row's latest POST started (clock skew) to `afterMs` after (the POST timeout plus skew).
// 2. What a finished job reveals must fit the request: images for an image or upscale request,
//    videos for a video request (one that succeeded with neither is a training job: nobody's), and
//    never more outputs than the request asked for (fewer can be a partial result, so that says nothing).
// 3. Every row that may have sent a job counts as a possible sender, also rows not decided in this
//    pass (still inside their window, mid-POST, another process's): a job with two possible senders
//    is tied to neither.
// A row is decided only once its window has closed (every job it can have made is listed by then):
// - exactly one candidate, and that job has no other possible sender → `adopt`;
// - no candidate at all → `nothing` (nothing it sent arrived: it can be sent again);
// - otherwise → `ambiguous` with its candidates (kept as jobs found on the service that could not
//   be tied to a request; the user may say which one is this row's).

/** 'other': finished well but made no image or video (a training job, listed by GET /jobs too). */
export type CandidateKind = 'image' | 'video' | 'other' | null;

export interface PendingRow {
  localId: number;
  kind: 'image' | 'upscale' | 'video' | 'training';
  /** When the row's latest POST started (local epoch ms). */
  createdAt: number;
  /** How many outputs the request asked for, when it says (numImages, numVideos; 1 for an upscale). */
  requestedCount?: number | null;
  /** False: a possible sender only (window still open, POST under way, another process's row). */
  decidable?: boolean;
}

export interface Candidate {
  jobId: string;
  /** Service creation time (epoch ms). */
  createdAt: number;
  /** What the job made, when known; null = not known (still running, failed, no record). */
  kind: CandidateKind;
  /** How many images or videos the finished job made; null = not known. */
  outputCount?: number | null;
}

export interface MatchWindow {
  beforeMs: number;
  afterMs: number;
}

export type Decision = { type: 'adopt'; jobId: string } | { type: 'nothing' } | { type: 'ambiguous'; jobIds: string[] };

export function inWindow(row: PendingRow, candidate: Candidate, window: MatchWindow): boolean {
  return (
    candidate.createdAt >= row.createdAt - window.beforeMs && candidate.createdAt <= row.createdAt + window.afterMs
  );
}

export function kindsAgree(row: PendingRow, kind: CandidateKind): boolean {
  if (kind === null) return true;
  if (kind === 'other') return false;
  if (kind === 'video') return row.kind === 'video';
  return row.kind === 'image' || row.kind === 'upscale';
}

/** A job never makes more outputs than its request asked for. */
export function countsAgree(row: PendingRow, candidate: Candidate): boolean {
  const asked = row.requestedCount ?? null;
  const made = candidate.outputCount ?? null;
  return asked === null || made === null || made <= asked;
}

export function couldHaveSent(row: PendingRow, candidate: Candidate, window: MatchWindow): boolean {
  return inWindow(row, candidate, window) && kindsAgree(row, candidate.kind) && countsAgree(row, candidate);
}

/** localId → decision, for the decidable rows only. */
export function decideSubmissions(
  rows: readonly PendingRow[],
  candidates: readonly Candidate[],
  window: MatchWindow,
): Map<number, Decision> {
  const sendersOf = new Map<string, number>(); // jobId → how many rows may have sent it
  for (const candidate of candidates) {
    sendersOf.set(candidate.jobId, rows.filter((row) => couldHaveSent(row, candidate, window)).length);
  }
  const decisions = new Map<number, Decision>();
  for (const row of rows) {
    if (row.decidable === false) continue;
    const mine = candidates.filter((candidate) => couldHaveSent(row, candidate, window));
    if (mine.length === 0) decisions.set(row.localId, { type: 'nothing' });
    else if (mine.length === 1 && sendersOf.get(mine[0]!.jobId) === 1)
      decisions.set(row.localId, { type: 'adopt', jobId: mine[0]!.jobId });
    else decisions.set(row.localId, { type: 'ambiguous', jobIds: mine.map((c) => c.jobId) });
  }
  return decisions;
}

/** How many outputs a request asks for, when it says (a service default is not assumed); an upscale makes one. */
export function requestedCountOf(kind: PendingRow['kind'], request: Record<string, unknown>): number | null {
  if (kind === 'upscale') return 1;
  const value = kind === 'video' ? request['numVideos'] : request['numImages'];
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : null;
}

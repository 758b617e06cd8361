// Matching heuristic for reconciliation: which service job (from GET /jobs) is the one a
// 'submitting' row sent before the app died or lost the answer. Pure, so every case is tested.
//
// The job list carries no kind, model or request, only jobId, status and createdAt, so:
// 1. A candidate must have been created inside the row's window: from `beforeMs` before the row
//    was written (clock skew) to `afterMs` after it (the POST timeout plus skew).
// 2. Kinds must agree when known (a finished job's record shows images or videos; one that
//    succeeded with neither is a training job, never a generation).
// 3. Rows and candidates whose windows touch form a cluster. A cluster with as many candidates as
//    rows is paired in time order (both sides are in submission order). Otherwise only pairs that
//    are each other's single possibility are adopted; the rest stay unmatched (never guessed).
// Job ids some local row already follows are excluded before matching.

/** 'other': finished well but made no image or video (a training job, listed by GET /jobs too). */
export type CandidateKind = 'image' | 'video' | 'other' | null;

export interface PendingRow {
  localId: number;
  kind: 'image' | 'upscale' | 'video' | 'training';
  /** When the row was written, just before the POST (local epoch ms). */
  createdAt: number;
}

export interface Candidate {
  jobId: string;
  /** Service creation time (epoch ms). */
  createdAt: number;
  /** What the job made, when known; null = not known (still running, failed, no record). */
  kind: CandidateKind;
}

export interface MatchWindow {
  beforeMs: number;
  afterMs: number;
}

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

/** localId → jobId for the rows that could be matched without guessing. */
export function matchSubmissions(
  rows: readonly PendingRow[],
  candidates: readonly Candidate[],
  window: MatchWindow,
): Map<number, string> {
  const edges = new Map<number, Set<number>>(); // row index → candidate indexes
  const back = new Map<number, Set<number>>(); // candidate index → row indexes
  rows.forEach((row, r) => {
    candidates.forEach((candidate, c) => {
      if (!inWindow(row, candidate, window) || !kindsAgree(row, candidate.kind)) return;
      (edges.get(r) ?? edges.set(r, new Set()).get(r)!).add(c);
      (back.get(c) ?? back.set(c, new Set()).get(c)!).add(r);
    });
  });
  const adopted = new Map<number, string>();
  const seenRows = new Set<number>();
  for (let start = 0; start < rows.length; start += 1) {
    if (seenRows.has(start) || !edges.has(start)) continue;
    // Collect the cluster (connected rows and candidates).
    const clusterRows = new Set<number>();
    const clusterCands = new Set<number>();
    const stack = [start];
    while (stack.length > 0) {
      const r = stack.pop()!;
      if (clusterRows.has(r)) continue;
      clusterRows.add(r);
      for (const c of edges.get(r) ?? []) {
        if (clusterCands.has(c)) continue;
        clusterCands.add(c);
        for (const other of back.get(c) ?? []) stack.push(other);
      }
    }
    clusterRows.forEach((r) => seenRows.add(r));
    const byRowTime = [...clusterRows].sort(
      (a, b) => rows[a]!.createdAt - rows[b]!.createdAt || rows[a]!.localId - rows[b]!.localId,
    );
    const byCandTime = [...clusterCands].sort(
      (a, b) =>
        candidates[a]!.createdAt - candidates[b]!.createdAt || (candidates[a]!.jobId < candidates[b]!.jobId ? -1 : 1),
    );
    if (byRowTime.length === byCandTime.length && byRowTime.every((r, i) => edges.get(r)?.has(byCandTime[i]!))) {
      byRowTime.forEach((r, i) => adopted.set(rows[r]!.localId, candidates[byCandTime[i]!]!.jobId));
      continue;
    }
    for (const r of byRowTime) {
      const only = [...(edges.get(r) ?? [])];
      if (only.length === 1 && back.get(only[0]!)?.size === 1)
        adopted.set(rows[r]!.localId, candidates[only[0]!]!.jobId);
    }
  }
  return adopted;
}

// Judges a fault soak run (soak-run.ts) against what really happened: the proxy saw every request
// and the emulator's answer to it (which request made which job), the emulator knows every job's
// finish and every image's prompt. Each finding names the row, the job and the request.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  parseParameters,
  parseRequestJson,
  PARAMETERS_KEYWORD,
  readXmp,
  REQUEST_KEYWORD,
} from '../../../contract/generation-settings.ts';
import { POLL_INTERVALS_MS } from '../../../contract/service.ts';
import type { JobInfo } from '../../../contract/ipc/jobs.ts';
import { formatOf, readJpegXmp, readPngText } from '../../library/media/embed-settings.ts';
import type { ProxyRecord } from '../../../../emulator/fault-proxy.ts';
import type { SoakRun } from './soak-run.ts';

export interface SoakFigures {
  submissions: number;
  rows: number;
  ownJob: number;
  /** Rows without a job of their own at the end, and jobs kept as "could not tell which request". */
  unattributed: number;
  serviceJobs: number;
  finishedJobs: number;
  /** API requests the app sent (through the proxy) per finished service job. */
  requestsPerFinishedJob: number;
  requests: { total: number; listPages: number; jobGets: number; posts: number; media: number };
  faults: Record<string, number>;
  refusedBeforeForwarding: number;
  /** Requests reset before the service saw them whose rows honestly say "may have been sent". */
  resetLeftMaybeSent: number;
  /** Time from a job's finish to the app's event saying so, per advised interval. */
  notice: { count: number; p50Ms: number; p95Ms: number; maxMs: number; p95Ratio: number };
  /** Shortest time between two job-list reads of one process. */
  minListGapMs: number | null;
  downloadedFiles: number;
  filesWithSettings: number;
  /** Warnings the core logged (failed checks, retried requests): counted, not judged. */
  coreWarnings: number;
}

export interface SoakVerdict {
  figures: SoakFigures;
  /** Each broken promise, in words naming the row, job and request; empty when the run held. */
  findings: string[];
}

/** Two job-list reads closer than this (the shortest advised interval, less timer slack) count as a second read. */
const LIST_GAP_FLOOR_MS = POLL_INTERVALS_MS.imageJob * 0.95;

/** What tells one request of the run from another: its prompt, or an upscale's source image. */
const identityOfBody = (body: unknown): string | null => {
  const record = (body ?? {}) as Record<string, unknown>;
  if (typeof record['prompt'] === 'string') return `prompt:${record['prompt']}`;
  if (typeof record['imageID'] === 'string') return `upscale:${record['imageID']}`;
  return null;
};

const identityOfJob = (job: JobInfo): string | null =>
  job.prompt !== null ? `prompt:${job.prompt}` : job.sourceImageId ? `upscale:${job.sourceImageId}` : null;

/** A job the app found on the service but could not tie to one of its requests (issue 28's honest label). */
const isUnattributed = (row: JobInfo): boolean => (row as { unattributed?: unknown }).unattributed === true;

const isGenerationPost = (r: ProxyRecord): boolean =>
  r.method === 'POST' && /^\/(images\/generation|images\/upscaling|videos\/generation)/.test(r.url);

const describeIdentity = (identity: string | null): string => (identity ?? '(no request)').slice(0, 60);

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** The prompt, job and request embedded in a downloaded image; null when it carries none of ours. */
export function embeddedSettings(
  bytes: Buffer,
): { prompt: string; jobId: string | null; request: Record<string, unknown> | null } | null {
  const format = formatOf(bytes);
  let parameters: string | null = null;
  let request: Record<string, unknown> | null = null;
  if (format === 'png') {
    const text = readPngText(bytes);
    parameters = text[PARAMETERS_KEYWORD] ?? null;
    request = text[REQUEST_KEYWORD] ? parseRequestJson(text[REQUEST_KEYWORD]) : null;
  } else if (format === 'jpeg') {
    const xmp = readJpegXmp(bytes);
    if (xmp) ({ parameters, request } = readXmp(xmp));
  }
  if (parameters === null && request === null) return null;
  const parsed = parameters === null ? null : parseParameters(parameters);
  return { prompt: parsed?.prompt ?? '', jobId: parsed?.pairs['Job'] ?? null, request };
}

export function judgeSoak(run: SoakRun): SoakVerdict {
  const findings: string[] = [];
  const posts = run.records.filter(isGenerationPost);
  // The truth: which request made which job, from the emulator's answers the proxy saw.
  const requestOfJob = new Map<string, string>();
  const forwardedByIdentity = new Map<string, number>();
  const refusedByIdentity = new Map<string, string[]>();
  for (const r of posts) {
    const identity = identityOfBody(r.body);
    if (!identity) continue;
    if (r.upstreamStatus === 200) {
      forwardedByIdentity.set(identity, (forwardedByIdentity.get(identity) ?? 0) + 1);
      const jobId = (r.answer as { result?: { jobId?: unknown } } | undefined)?.result?.jobId;
      if (typeof jobId === 'string') requestOfJob.set(jobId, identity);
    } else if (r.upstreamStatus === null) {
      refusedByIdentity.set(identity, [...(refusedByIdentity.get(identity) ?? []), r.fate]);
    }
  }
  const serviceJob = new Map(run.serviceJobs.map((j) => [j.jobId, j]));
  const finished = run.serviceJobs.filter((j) => j.status === 'success' || j.status === 'failed');

  // 1. Every row ends with its own job or without one, honestly; never another request's.
  let ownJob = 0;
  let unattributed = 0;
  const rowOfJob = new Map<string, JobInfo>();
  for (const row of run.jobs) {
    const identity = identityOfJob(row);
    if (isUnattributed(row)) {
      // A job found on the service, kept honestly: no request of ours, followed to its end.
      unattributed += 1;
      if (identity !== null)
        findings.push(
          `unattributed job ${row.jobId} (row ${row.localId}) carries a request: ${describeIdentity(identity)}`,
        );
      if (['submitting', 'queued', 'running'].includes(row.state))
        findings.push(`unattributed job ${row.jobId} (row ${row.localId}) is still ${row.state} at the end`);
      continue;
    }
    if (row.jobId === null) {
      unattributed += 1;
      if (['submitting', 'queued', 'running'].includes(row.state))
        findings.push(`row ${row.localId} (${describeIdentity(identity)}) is still ${row.state} at the end`);
      continue;
    }
    rowOfJob.set(row.jobId, row);
    const madeBy = requestOfJob.get(row.jobId);
    if (madeBy === undefined) {
      findings.push(
        `row ${row.localId} (${describeIdentity(identity)}) holds job ${row.jobId}, which no request of this run made`,
      );
    } else if (madeBy !== identity) {
      findings.push(
        `row ${row.localId} (${describeIdentity(identity)}) holds job ${row.jobId}, made by another request (${describeIdentity(madeBy)})`,
      );
    } else ownJob += 1;
    if (['submitting', 'queued', 'running'].includes(row.state))
      findings.push(
        `row ${row.localId} (${describeIdentity(identity)}, job ${row.jobId}) is still ${row.state} at the end`,
      );
  }

  // 2. Every request the service never took was sent again, and every request reached it exactly once.
  const planned = new Set<string>();
  const submittedN = new Map<number, string>();
  for (const line of run.lines) {
    if (line.type !== 'submitting') continue;
    const identity = identityOfBody(line['body']);
    if (identity) {
      planned.add(identity);
      submittedN.set(Number(line['n']), identity);
    }
  }
  // A reset leaves the app unable to tell whether the request arrived (the proxy knows it did not):
  // a row saying "may have been sent", pointing at jobs found on the service, is honest about it.
  const rowOfIdentity = new Map(run.jobs.filter((r) => !isUnattributed(r)).map((r) => [identityOfJob(r), r]));
  let resetLeftMaybeSent = 0;
  for (const identity of planned) {
    const forwarded = forwardedByIdentity.get(identity) ?? 0;
    const refused = refusedByIdentity.get(identity) ?? [];
    const row = rowOfIdentity.get(identity);
    const possibleJobs = (row as { possibleJobs?: unknown[] } | undefined)?.possibleJobs ?? [];
    if (forwarded === 0 && refused.at(-1) === 'reset-before' && row?.state === 'unknown' && possibleJobs.length > 0) {
      resetLeftMaybeSent += 1;
      continue;
    }
    if (forwarded === 0)
      findings.push(
        `request ${describeIdentity(identity)} never reached the service${refused.length ? ` (refused before forwarding: ${refused.join(', ')}; not sent again)` : ''}`,
      );
    else if (forwarded > 1)
      findings.push(`request ${describeIdentity(identity)} reached the service ${forwarded} times`);
  }
  if (submittedN.size !== run.plan.length)
    findings.push(`${run.plan.length - submittedN.size} of ${run.plan.length} planned requests were never submitted`);

  // 3. The library: every output of every job this run made is there, none with another request's settings.
  const assetsByRef = new Map(run.assets.map((a) => [`${a.kind}:${a.id}`, a]));
  let downloadedFiles = 0;
  let filesWithSettings = 0;
  for (const job of run.serviceJobs) {
    if (!requestOfJob.has(job.jobId) || job.status !== 'success') continue;
    for (const [kind, id] of [
      ...job.images.map((i) => ['image', i] as const),
      ...job.videos.map((v) => ['video', v] as const),
    ]) {
      const asset = assetsByRef.get(`${kind}:${id}`);
      if (!asset || asset.file.state !== 'downloaded' || !asset.file.path) {
        findings.push(
          `${kind} ${id} of job ${job.jobId} (${describeIdentity(requestOfJob.get(job.jobId)!)}) is not in the library (${asset ? asset.file.state : 'no row'})`,
        );
      }
    }
  }
  // An upscale's truth is its source; its library row and file carry its source's prompt by design.
  const acceptable = (truth: string): Set<string> => {
    const source = truth.startsWith('upscale:') ? run.serviceImages.get(truth.slice('upscale:'.length)) : undefined;
    return new Set(source?.prompt ? [truth, `prompt:${source.prompt}`] : [truth]);
  };
  for (const asset of run.assets) {
    if (asset.origin === 'uploaded') continue;
    const jobOfAsset =
      (asset.kind === 'image' ? run.serviceImages.get(asset.id)?.jobId : undefined) ??
      run.serviceJobs.find((j) => j.videos.includes(asset.id) || j.images.includes(asset.id))?.jobId ??
      null;
    const truth = jobOfAsset ? requestOfJob.get(jobOfAsset) : undefined;
    const recorded = asset.prompt !== null ? `prompt:${asset.prompt}` : null;
    if (asset.jobId !== null && jobOfAsset !== null && asset.jobId !== jobOfAsset)
      findings.push(
        `library ${asset.kind} ${asset.id} is recorded as job ${asset.jobId}, but job ${jobOfAsset} made it`,
      );
    if (recorded !== null && truth !== undefined && !acceptable(truth).has(recorded))
      findings.push(
        `library ${asset.kind} ${asset.id} (job ${jobOfAsset}) is labelled "${describeIdentity(recorded)}" but was made by ${describeIdentity(truth)}`,
      );
    if (asset.file.state !== 'downloaded' || !asset.file.path) continue;
    downloadedFiles += 1;
    if (asset.kind !== 'image') continue;
    const embedded = embeddedSettings(readFileSync(join(run.libraryDir, asset.file.path)));
    if (!embedded) continue;
    filesWithSettings += 1;
    const embeddedIdentities = [identityOfBody(embedded.request), embedded.prompt ? `prompt:${embedded.prompt}` : null];
    if (embedded.jobId !== null && jobOfAsset !== null && embedded.jobId !== jobOfAsset)
      findings.push(`file ${asset.file.path} (job ${jobOfAsset}) has job ${embedded.jobId} embedded`);
    for (const identity of embeddedIdentities) {
      if (identity === null || truth === undefined || acceptable(truth).has(identity)) continue;
      findings.push(
        `file ${asset.file.path} (job ${jobOfAsset}, made by ${describeIdentity(truth)}) has foreign settings embedded: ${describeIdentity(identity)}`,
      );
    }
  }

  // 4. Finished jobs noticed within 2× the advised interval (p95), from the finish or the process's start.
  const latencies: { ms: number; ratio: number; row: JobInfo; jobId: string }[] = [];
  const firstTerminal = new Map<number, { t: number; life: number }>();
  for (const line of run.lines) {
    if (line.type !== 'jobs:changed' || !['succeeded', 'failed'].includes(String(line['state']))) continue;
    const localId = Number(line['localId']);
    if (!firstTerminal.has(localId)) firstTerminal.set(localId, { t: line.t, life: line.life });
  }
  for (const [jobId, row] of rowOfJob) {
    const job = serviceJob.get(jobId);
    const seen = firstTerminal.get(row.localId);
    if (!job || !seen || !['success', 'failed'].includes(job.status)) continue;
    const from = Math.max(job.updatedAt, run.readyAt[seen.life - 1] ?? 0);
    const interval = row.kind === 'video' ? POLL_INTERVALS_MS.videoJob : POLL_INTERVALS_MS.imageJob;
    const ms = Math.max(0, seen.t - from);
    if (!Number.isFinite(ms)) {
      findings.push(`job ${jobId}: no finish time to measure its notice from`);
      continue;
    }
    latencies.push({ ms, ratio: ms / interval, row, jobId });
  }
  const sortedMs = latencies.map((l) => l.ms).sort((a, b) => a - b);
  const sortedRatio = latencies.map((l) => l.ratio).sort((a, b) => a - b);
  const notice = {
    count: latencies.length,
    p50Ms: percentile(sortedMs, 50),
    p95Ms: percentile(sortedMs, 95),
    maxMs: sortedMs.at(-1) ?? 0,
    p95Ratio: percentile(sortedRatio, 95),
  };
  if (notice.p95Ratio > 2) {
    const worst = [...latencies]
      .sort((a, b) => b.ratio - a.ratio)
      .slice(0, 3)
      .map((l) => `row ${l.row.localId} (${l.row.kind}, job ${l.jobId}) ${(l.ms / 1000).toFixed(1)} s`);
    findings.push(
      `finished jobs were noticed late: p95 ${notice.p95Ratio.toFixed(2)}× the advised interval (p50 ${(notice.p50Ms / 1000).toFixed(1)} s, longest ${(notice.maxMs / 1000).toFixed(1)} s; latest: ${worst.join(', ')})`,
    );
  }

  // 5. One job-list read serves every purpose: no two within the advised interval, per process.
  const lifeAt = (t: number): number => (run.killedAt !== null && t >= run.killedAt ? 2 : 1);
  const listReads = run.records.filter(
    (r) => r.method === 'GET' && /^\/jobs(\?|$)/.test(r.url) && !r.url.includes('pageToken=') && r.status === 200,
  );
  let minListGapMs: number | null = null;
  for (let i = 1; i < listReads.length; i += 1) {
    const [a, b] = [listReads[i - 1]!, listReads[i]!];
    if (lifeAt(a.at) !== lifeAt(b.at)) continue;
    const gap = b.at - a.at;
    minListGapMs = minListGapMs === null ? gap : Math.min(minListGapMs, gap);
    if (gap < LIST_GAP_FLOOR_MS)
      findings.push(
        `the job list was read twice within ${gap} ms (requests #${a.seq} and #${b.seq}, ${new Date(b.at).toISOString()})`,
      );
  }

  // 6. Download counts never negative.
  const negative = run.lines.filter(
    (line) => line.type === 'downloads:changed' && ['active', 'waiting', 'failed'].some((key) => Number(line[key]) < 0),
  );
  if (negative.length > 0) {
    const lowest = Math.min(
      ...negative.flatMap((line) => ['active', 'waiting', 'failed'].map((key) => Number(line[key]))),
    );
    findings.push(
      `downloads:changed reported a negative count ${negative.length} times (down to ${lowest}), first at ${new Date(negative[0]!.t).toISOString()}`,
    );
  }
  if (!run.settled) findings.push('the run did not settle within its limit (judged as it stood)');

  const api = run.records.filter((r) => !r.media && !r.url.startsWith('/__emulator/'));
  const faults: Record<string, number> = {};
  for (const r of run.records) faults[r.fate] = (faults[r.fate] ?? 0) + 1;
  const figures: SoakFigures = {
    submissions: run.plan.length,
    rows: run.jobs.length,
    ownJob,
    unattributed,
    serviceJobs: run.serviceJobs.length,
    finishedJobs: finished.length,
    requestsPerFinishedJob: finished.length === 0 ? 0 : api.length / finished.length,
    requests: {
      total: api.length,
      listPages: api.filter((r) => r.method === 'GET' && /^\/jobs(\?|$)/.test(r.url)).length,
      jobGets: api.filter((r) => r.method === 'GET' && /^\/jobs\/[^/?]+/.test(r.url)).length,
      posts: posts.length,
      media: run.records.filter((r) => r.media).length,
    },
    faults,
    refusedBeforeForwarding: posts.filter((r) => r.upstreamStatus === null).length,
    resetLeftMaybeSent,
    notice,
    minListGapMs,
    downloadedFiles,
    filesWithSettings,
    coreWarnings: run.lines.filter((line) => line.type === 'core-error').length,
  };
  return { figures, findings };
}

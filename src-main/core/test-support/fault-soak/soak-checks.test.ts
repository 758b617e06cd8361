// The soak's judge on made-up runs: each broken promise is found and named (row, job, request),
// and a run that kept them all has no findings. The real runs are in core/fault-soak.test.ts.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProxyRecord } from '../../../../emulator/fault-proxy.ts';
import type { JobInfo } from '../../../contract/ipc/jobs.ts';
import { embedInPng } from '../../library/media/embed-settings.ts';
import { judgeSoak } from './soak-checks.ts';
import type { ChildLine, DumpedAsset, SoakRun } from './soak-run.ts';

const T0 = Date.parse('2026-11-27T12:00:00Z');
let libraryDir: string;
let png: Buffer;

beforeAll(async () => {
  libraryDir = mkdtempSync(join(tmpdir(), 'atelier-soak-checks-'));
  mkdirSync(join(libraryDir, 'images'));
  png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#336699' } })
    .png()
    .toBuffer();
});
afterAll(() => rmSync(libraryDir, { recursive: true, force: true }));

function post(seq: number, prompt: string, jobId: string | null, fate: ProxyRecord['fate'] = 'forwarded'): ProxyRecord {
  const forwarded = jobId !== null;
  return {
    seq,
    at: T0 + seq * 10,
    method: 'POST',
    url: '/images/generation',
    media: false,
    fate,
    status: fate === 'forwarded' ? 200 : fate === 'server-error' ? 503 : null,
    upstreamStatus: forwarded ? 200 : null,
    latencyMs: 0,
    body: { modelID: 'imagea', prompt },
    ...(forwarded ? { answer: { status: 'OK', result: { jobId, status: 'queued' } } } : {}),
  };
}

function listRead(seq: number, at: number): ProxyRecord {
  const url = '/jobs?start=x&end=y';
  return {
    seq,
    at,
    method: 'GET',
    url,
    media: false,
    fate: 'forwarded',
    status: 200,
    upstreamStatus: 200,
    latencyMs: 0,
  };
}

function row(localId: number, prompt: string | null, jobId: string | null, state: JobInfo['state']): JobInfo {
  // Asserted: the attribution fields (issue 28) join JobInfo with the engine's side of the work.
  return {
    localId,
    jobId,
    kind: 'image',
    modelId: 'imagea',
    state,
    serviceStatus: null,
    error: null,
    request: prompt === null ? {} : { modelID: 'imagea', prompt },
    prompt,
    sourceImageId: null,
    createdAt: T0,
    submittedAt: T0,
    finishedAt: null,
    lastPolledAt: null,
    nextPollAt: null,
    outputs: jobId ? [{ kind: 'image', id: `img_${jobId}`, url: 'u', assetSeq: localId, hls: false }] : [],
    credits: null,
    canResubmit: false,
    resubmittedAs: null,
    unattributed: prompt === null,
    mayBeFrom: [],
    possibleJobs: [],
    resendAt: null,
    canCancelResend: false,
  } as JobInfo;
}

const line = (t: number, type: string, fields: Record<string, unknown>, life = 1): ChildLine => ({
  t,
  type,
  life,
  ...fields,
});

/** Two requests, each with its own job, finished, noticed 3 s later, downloaded with its own settings. */
function goodRun(): SoakRun {
  const file = (jobId: string, prompt: string): string => {
    const path = `images/img_${jobId}.png`;
    writeFileSync(
      join(libraryDir, path),
      embedInPng(png, {
        prompt,
        modelId: 'imagea',
        seed: null,
        width: 8,
        height: 8,
        preset: null,
        jobId,
        request: prompt === null ? {} : { modelID: 'imagea', prompt },
      }),
    );
    return path;
  };
  const asset = (jobId: string, prompt: string): DumpedAsset => ({
    kind: 'image',
    id: `img_${jobId}`,
    origin: 'generated',
    jobId,
    prompt,
    paramsJson: null,
    file: { state: 'downloaded', path: file(jobId, prompt) },
  });
  return {
    options: {} as SoakRun['options'],
    plan: [
      { n: 0, atMs: 0, kind: 'image', body: { modelID: 'imagea', prompt: 'p0' } },
      { n: 1, atMs: 10, kind: 'image', body: { modelID: 'imagea', prompt: 'p1' } },
    ],
    lines: [
      line(T0, 'submitting', { n: 0, kind: 'image', body: { modelID: 'imagea', prompt: 'p0' } }),
      line(T0, 'submitting', { n: 1, kind: 'image', body: { modelID: 'imagea', prompt: 'p1' } }),
      line(T0 + 13_000, 'jobs:changed', { localId: 1, jobId: 'job_a', state: 'succeeded' }),
      line(T0 + 13_000, 'jobs:changed', { localId: 2, jobId: 'job_b', state: 'succeeded' }),
      line(T0 + 13_100, 'downloads:changed', { active: 1, waiting: 0, failed: 0 }),
    ],
    readyAt: [T0 - 1000],
    killedAt: null,
    heldAtKill: [],
    records: [post(0, 'p0', 'job_a'), post(1, 'p1', 'job_b'), listRead(2, T0 + 5_000), listRead(3, T0 + 10_000)],
    jobs: [row(1, 'p0', 'job_a', 'succeeded'), row(2, 'p1', 'job_b', 'succeeded')],
    assets: [asset('job_a', 'p0'), asset('job_b', 'p1')],
    libraryDir,
    serviceJobs: ['job_a', 'job_b'].map((jobId) => ({
      jobId,
      status: 'success',
      createdAt: T0,
      updatedAt: T0 + 10_000,
      images: [`img_${jobId}`],
      videos: [],
    })),
    serviceImages: new Map(
      [
        ['job_a', 'p0'],
        ['job_b', 'p1'],
      ].map(([jobId, prompt]) => [
        `img_${jobId}`,
        { id: `img_${jobId}`, jobId: jobId!, prompt: prompt!, upscaledFrom: null },
      ]),
    ),
    settled: true,
    wallMs: 0,
    cleanUp: () => undefined,
  };
}

describe('judgeSoak', () => {
  it('finds nothing in a run that kept every promise, and measures it', () => {
    const { findings, figures } = judgeSoak(goodRun());
    expect(findings).toEqual([]);
    expect(figures).toMatchObject({ ownJob: 2, unattributed: 0, filesWithSettings: 2, minListGapMs: 5_000 });
    expect(figures.notice).toMatchObject({ count: 2, p95Ms: 3_000, p95Ratio: 0.6 });
  });

  it("names a row holding another request's job, and the foreign settings in its file", () => {
    const run = goodRun();
    // The rows swapped their jobs, and the library wrote each row's prompt into the other job's file.
    run.jobs = [row(1, 'p0', 'job_b', 'succeeded'), row(2, 'p1', 'job_a', 'succeeded')];
    run.assets = run.assets.map((a) => ({ ...a, prompt: a.prompt === 'p0' ? 'p1' : 'p0' }));
    const swapped = judgeSoak(run).findings.join('\n');
    expect(swapped).toContain('row 1 (prompt:p0) holds job job_b, made by another request (prompt:p1)');
    expect(swapped).toContain('row 2 (prompt:p1) holds job job_a, made by another request (prompt:p0)');
    expect(swapped).toContain('library image img_job_a (job job_a) is labelled "prompt:p1" but was made by prompt:p0');
    const foreignFile = goodRun();
    foreignFile.serviceImages.set('img_job_a', { id: 'img_job_a', jobId: 'job_a', prompt: 'p0', upscaledFrom: null });
    foreignFile.records = [post(0, 'p0', 'job_b'), post(1, 'p1', 'job_a')];
    foreignFile.jobs = [row(1, 'p0', null, 'unknown'), row(2, 'p1', null, 'unknown')];
    expect(judgeSoak(foreignFile).findings.join('\n')).toContain(
      'file images/img_job_a.png (job job_a, made by prompt:p1) has foreign settings embedded: prompt:p0',
    );
  });

  it('takes a job kept as unattributed (no request, followed to its end) as honest', () => {
    const run = goodRun();
    run.jobs = [row(1, 'p0', null, 'unknown'), row(2, 'p1', 'job_b', 'succeeded'), row(3, null, 'job_a', 'succeeded')];
    run.assets = run.assets.map((a) => (a.jobId === 'job_a' ? { ...a, prompt: null } : a));
    const { findings, figures } = judgeSoak(run);
    expect(findings).toEqual([]);
    expect(figures).toMatchObject({ ownJob: 1, unattributed: 2 });
    run.jobs[2] = row(3, null, 'job_a', 'running');
    expect(judgeSoak(run).findings).toEqual(['unattributed job job_a (row 3) is still running at the end']);
  });

  it('takes a reset request whose row says "may have been sent" as honest, but not one refused with a 503', () => {
    const run = goodRun();
    run.records = [post(0, 'p0', null, 'reset-before'), post(1, 'p1', 'job_b')];
    const maybe = { ...row(1, 'p0', null, 'unknown'), possibleJobs: [{ localId: 3 }] } as JobInfo;
    run.jobs = [maybe, row(2, 'p1', 'job_b', 'succeeded')];
    const { findings, figures } = judgeSoak(run);
    expect(findings).toEqual([]);
    expect(figures.resetLeftMaybeSent).toBe(1);
    run.records = [post(0, 'p0', null, 'server-error'), post(1, 'p1', 'job_b')];
    expect(judgeSoak(run).findings).toEqual([
      'request prompt:p0 never reached the service (refused before forwarding: server-error; not sent again)',
    ]);
  });

  it('names a request the service never got, one it got twice, a row left live and an output not in the library', () => {
    const run = goodRun();
    run.records = [post(0, 'p0', null, 'server-error'), post(1, 'p1', 'job_b'), post(2, 'p1', 'job_c')];
    run.jobs = [row(1, 'p0', null, 'submitting'), row(2, 'p1', 'job_b', 'succeeded')];
    run.assets = run.assets.filter((a) => a.jobId !== 'job_b');
    const findings = judgeSoak(run).findings;
    expect(findings).toContain('row 1 (prompt:p0) is still submitting at the end');
    expect(findings).toContain(
      'request prompt:p0 never reached the service (refused before forwarding: server-error; not sent again)',
    );
    expect(findings).toContain('request prompt:p1 reached the service 2 times');
    expect(findings).toContain('image img_job_b of job job_b (prompt:p1) is not in the library (no row)');
  });

  it('names two list reads within the interval of one process (not across a restart), late notices and negative counts', () => {
    const run = goodRun();
    run.records = [...run.records, listRead(4, T0 + 11_000), listRead(5, T0 + 20_000), listRead(6, T0 + 21_000)];
    run.killedAt = T0 + 20_500;
    run.lines = run.lines.map((l) => (l.type === 'jobs:changed' ? { ...l, t: T0 + 25_000 } : l));
    run.lines.push(line(T0 + 14_000, 'downloads:changed', { active: 0, waiting: -2, failed: 0 }));
    const findings = judgeSoak(run).findings.join('\n');
    expect(findings).toContain('the job list was read twice within 1000 ms (requests #3 and #4');
    expect(findings).not.toContain('requests #5 and #6');
    expect(findings).toContain('finished jobs were noticed late: p95 3.00× the advised interval');
    expect(findings).toContain('downloads:changed reported a negative count 1 times (down to -2)');
  });
});

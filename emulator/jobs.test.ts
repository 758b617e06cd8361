// GET /jobs range rules and pageToken pages; GET /jobs/{id}.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from './index.ts';
import { JOBS_PAGE_SIZE } from './pagination.ts';
import { Api, HOUR, startTestEmulator } from './test-support.ts';

interface Summary {
  jobId: string;
  status: string;
  createdAt: string;
  updatedAt: string;
  credits: number;
  errorMessage: string;
}
interface JobsResult {
  jobs: Summary[];
  nextPageToken: string;
}

let emulator: RunningEmulator;
let api: Api;

beforeAll(async () => {
  ({ emulator, api } = await startTestEmulator());
});
beforeEach(() => emulator.control.reset());
afterAll(() => emulator.close());

const iso = (ms: number): string => new Date(ms).toISOString();
const trigger = async (prompt = 'job'): Promise<string> =>
  (await api.ok<{ jobId: string }>('POST', '/images/generation', { modelID: 'imagea', prompt })).jobId;

describe('GET /jobs range', () => {
  it('defaults to the last 24 virtual hours and carries summary fields', async () => {
    const old = await trigger('old');
    emulator.control.advanceClock(25 * HOUR);
    const recent = await trigger('recent');
    const { jobs, nextPageToken } = await api.ok<JobsResult>('GET', '/jobs');
    expect(jobs.map((j) => j.jobId)).toEqual([recent]);
    expect(nextPageToken).toBe('');
    expect(jobs[0]).toEqual({
      jobId: recent,
      status: 'queued',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      credits: 1,
      errorMessage: '',
    });
    // An explicit range still finds the old job.
    const now = emulator.control.now();
    const wide = await api.ok<JobsResult>('GET', `/jobs?start=${iso(now - 48 * HOUR)}&end=${iso(now)}`);
    expect(wide.jobs.map((j) => j.jobId)).toEqual([recent, old]);
  });

  it('accepts RFC 3339 with offsets and fractions', async () => {
    const id = await trigger();
    const now = emulator.control.now();
    const start = new Date(now - HOUR).toISOString().replace('Z', '+00:00');
    const res = await api.ok<JobsResult>(
      'GET',
      `/jobs?start=${encodeURIComponent(start)}&end=${encodeURIComponent(iso(now + 1000))}`,
    );
    expect(res.jobs.map((j) => j.jobId)).toEqual([id]);
  });

  it('refuses a range over 7 days, an end before start, and malformed times (400 naming the field)', async () => {
    const now = emulator.control.now();
    const tooLong = await api.get(`/jobs?start=${iso(now - 8 * 24 * HOUR)}&end=${iso(now)}`);
    expect(tooLong.http).toBe(400);
    expect(tooLong.body.message).toMatch(/^start: .*7 days/);
    const backwards = await api.get(`/jobs?start=${iso(now)}&end=${iso(now - HOUR)}`);
    expect(backwards.http).toBe(400);
    expect(backwards.body.message).toMatch(/^end: /);
    for (const bad of ['yesterday', '2025-01-01', '2025-01-01T10:00:00', '2025-13-01T00:00:00Z']) {
      const res = await api.get(`/jobs?start=${encodeURIComponent(bad)}`);
      expect(res.http, bad).toBe(400);
      expect(res.body.message).toMatch(/^start: /);
    }
    expect((await api.get(`/jobs?start=${iso(now - 7 * 24 * HOUR)}&end=${iso(now)}`)).http).toBe(200);
  });

  it('shows failed jobs with their error text and no credits', async () => {
    await trigger('boom [fail]');
    emulator.control.advanceClock(HOUR);
    const { jobs } = await api.ok<JobsResult>('GET', '/jobs');
    expect(jobs[0]).toMatchObject({ status: 'failed', credits: 0 });
    expect(jobs[0]?.errorMessage).toContain('[fail]');
  });
});

describe('GET /jobs pages', () => {
  it(`pages by ${JOBS_PAGE_SIZE} with pageToken, newest first, without repeats`, async () => {
    const created: string[] = [];
    for (let i = 0; i < JOBS_PAGE_SIZE + 12; i += 1) {
      created.push(await trigger(`n${i}`));
      emulator.control.advanceClock(1);
    }
    const first = await api.ok<JobsResult>('GET', '/jobs');
    expect(first.jobs).toHaveLength(JOBS_PAGE_SIZE);
    expect(first.nextPageToken).not.toBe('');
    // A new job arriving between pages does not shift the next page.
    await trigger('late');
    const second = await api.ok<JobsResult>('GET', `/jobs?pageToken=${encodeURIComponent(first.nextPageToken)}`);
    expect(second.jobs).toHaveLength(12);
    expect(second.nextPageToken).toBe('');
    expect([...first.jobs, ...second.jobs].map((j) => j.jobId)).toEqual([...created].reverse());
  });

  it('refuses a forged token or one sent with another range', async () => {
    for (let i = 0; i < JOBS_PAGE_SIZE + 1; i += 1) await trigger();
    const now = emulator.control.now();
    const range = `start=${iso(now - HOUR)}&end=${iso(now + 1)}`;
    const first = await api.ok<JobsResult>('GET', `/jobs?${range}`);
    const token = encodeURIComponent(first.nextPageToken);
    expect((await api.ok<JobsResult>('GET', `/jobs?${range}&pageToken=${token}`)).jobs).toHaveLength(1);
    const other = await api.get(`/jobs?start=${iso(now - 2 * HOUR)}&end=${iso(now)}&pageToken=${token}`);
    expect(other.http).toBe(400);
    expect(other.body.message).toMatch(/^pageToken: /);
    expect((await api.get('/jobs?pageToken=%%%')).http).toBe(400);
  });
});

describe('GET /jobs/{id}', () => {
  it('answers 404 for an unknown job', async () => {
    const res = await api.get('/jobs/job_missing');
    expect(res.http).toBe(404);
    expect(res.body).toMatchObject({ err: 'not_found', status: 'NOK', result: null });
  });
});

describe('jobSpeed', () => {
  it('runs job lifecycles faster while the clock keeps real time', async () => {
    const fast = await startTestEmulator({ jobSpeed: 10, timeScale: 1e-6 });
    try {
      const { jobId } = await fast.api.ok<{ jobId: string }>('POST', '/videos/generation', {
        modelID: 'videod-1.5',
        prompt: 'fast',
      });
      // A video takes 2–4 min at speed 1: at speed 10, at most 24 s.
      fast.emulator.control.advanceClock(24_000);
      expect((await fast.api.ok<Summary>('GET', `/jobs/${jobId}`)).status).toBe('success');
      expect(fast.emulator.control.clock().timeScale).toBe(1e-6);
      const plain = await api.ok<{ jobId: string }>('POST', '/videos/generation', {
        modelID: 'videod-1.5',
        prompt: 'x',
      });
      emulator.control.advanceClock(24_000);
      expect((await api.ok<Summary>('GET', `/jobs/${plain.jobId}`)).status).not.toBe('success');
    } finally {
      await fast.emulator.close();
    }
  });
});

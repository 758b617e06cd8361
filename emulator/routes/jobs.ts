// GET /jobs (RFC 3339 range, at most 7 days, pageToken pages) and GET /jobs/{id}.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { JOB_LIST_RANGE_MS } from '../../src-main/contract/service.ts';
import type { EmulatorContext } from '../context.ts';
import { invalidField, notFound, okEnvelope } from '../envelope.ts';
import { jobsPage, newestFirst, queryParam, rangeOfPageToken } from '../pagination.ts';
import { userOf } from '../request-state.ts';
import { jobSummaryView, jobView } from '../views.ts';

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

function parseTime(value: string | undefined, field: string): number | undefined {
  if (value === undefined || value === '') return undefined;
  const ms = RFC3339.test(value) ? Date.parse(value.replace(' ', 'T')) : NaN;
  if (!Number.isFinite(ms))
    throw invalidField(
      field,
      `must be an RFC 3339 time such as 2025-05-01T12:00:00Z; you gave ${JSON.stringify(value)}`,
    );
  return ms;
}

/**
 * Defaults: no start and no end = the last 24 hours of virtual time; only start = start until now;
 * only end = the 24 hours before end. A pageToken remembers its range, so start/end may be left out on later pages.
 */
export function jobListRange(query: unknown, now: number): { start: number; end: number; pageToken: string } {
  const pageToken = queryParam(query, 'pageToken') ?? '';
  let start = parseTime(queryParam(query, 'start'), 'start');
  let end = parseTime(queryParam(query, 'end'), 'end');
  if (start === undefined && end === undefined) {
    const remembered = rangeOfPageToken(pageToken);
    if (remembered) return { ...remembered, pageToken };
  }
  if (end === undefined) end = start === undefined ? now : Math.max(start, now);
  if (start === undefined) start = end - JOB_LIST_RANGE_MS.default;
  if (end < start) throw invalidField('end', 'must not be before start');
  if (end - start > JOB_LIST_RANGE_MS.max)
    throw invalidField('start', 'the range from start to end must not exceed 7 days');
  return { start, end, pageToken };
}

export function registerJobRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  app.get('/jobs', async (request) => {
    const owner = userOf(request);
    const now = ctx.clock.now();
    const { start, end, pageToken } = jobListRange(request.query, now);
    const jobs = [...ctx.store.jobs.values()]
      .filter((j) => j.ownerId === owner && j.createdAt >= start && j.createdAt <= end)
      .sort(newestFirst);
    const { items, nextPageToken } = jobsPage(jobs, pageToken, { start, end });
    return okEnvelope({ jobs: items.map((j) => jobSummaryView(j, now)), nextPageToken });
  });

  app.get('/jobs/:id', async (request: FastifyRequest) => {
    const id = (request.params as { id: string }).id;
    const job = ctx.store.ownedJob(userOf(request), id);
    if (!job) throw notFound('Job', id);
    return okEnvelope(jobView(ctx, job, ctx.clock.now()));
  });
}

// The one job list against a fake core: jobs:changed inserts or replaces by localId, newest first; a
// request's row that is tied to a job found on the service replaces that job's own row; an upscale is
// sent once however often it is pressed while one is on its way, and again once it has ended.
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeCore, installFakeCore, ok, settle } from '../test-support/fake-core.ts';
import { jobRecord } from '../test-support/records.ts';

const core = fakeCore();
installFakeCore(core);
const { jobList, isLive, needsAttention } = await import('./job-list.svelte.ts');
const { invoke } = await import('../ipc.ts');

let nextId = 100;
const submitUpscale = (imageID: string) => () => invoke('jobs:submit', { kind: 'upscale', body: { imageID } });

beforeEach(() => {
  jobList.reset();
  core.handle('jobs:submit', (request) =>
    ok(
      jobRecord({
        localId: nextId++,
        kind: 'upscale',
        state: 'submitting',
        sourceImageId: request.kind === 'upscale' ? (request.body as { imageID: string }).imageID : null,
        createdAt: nextId,
      }),
    ),
  );
});

describe('the job list', () => {
  it('loads newest first and follows jobs:changed by localId', async () => {
    core.handle('jobs:list', () =>
      ok([jobRecord({ localId: 1, createdAt: 10 }), jobRecord({ localId: 2, createdAt: 20, state: 'running' })]),
    );
    await jobList.load();
    expect(jobList.items.map((j) => j.localId)).toEqual([2, 1]);
    expect(core.argsOf('jobs:list').at(-1)).toEqual({ limit: 300 });
    const stop = jobList.listen();
    core.emit('jobs:changed', jobRecord({ localId: 1, createdAt: 10, state: 'succeeded', finishedAt: 30 }));
    expect(jobList.items).toHaveLength(2);
    expect(jobList.find(1)?.state).toBe('succeeded');
    expect(isLive(jobList.find(2)!)).toBe(true);
    expect(isLive(jobList.find(1)!)).toBe(false);
    stop();
  });

  it("replaces a service job's unattributed row with the request's row once tied", () => {
    jobList.upsert(jobRecord({ localId: 7, jobId: 'job_svc', unattributed: true, state: 'running' }));
    jobList.upsert(jobRecord({ localId: 8, jobId: 'job_svc', unattributed: false, state: 'running', createdAt: 2 }));
    expect(jobList.items.map((j) => j.localId)).toEqual([8]);
  });

  it('a failed or unknown job needs attention until it is sent again', () => {
    expect(needsAttention(jobRecord({ state: 'failed' }))).toBe(true);
    expect(needsAttention(jobRecord({ state: 'unknown', resubmittedAs: 12 }))).toBe(false);
    expect(needsAttention(jobRecord({ state: 'succeeded' }))).toBe(false);
  });

  it('sends an upscale once for a double press, and nothing while it is queued or running', async () => {
    const before = core.argsOf('jobs:submit').length;
    const [first, second] = await Promise.all([
      jobList.upscaleOnce('img_1', submitUpscale('img_1')),
      jobList.upscaleOnce('img_1', submitUpscale('img_1')),
    ]);
    expect(first?.ok).toBe(true);
    expect(second).toBeNull();
    expect(core.argsOf('jobs:submit').slice(before)).toEqual([{ kind: 'upscale', body: { imageID: 'img_1' } }]);
    expect(jobList.upscaleInFlight('img_1')).not.toBeNull();

    // The engine takes it: queued, then running. Still in flight: a press sends nothing.
    const job = jobList.items[0]!;
    jobList.upsert({ ...job, state: 'queued' });
    expect(await jobList.upscaleOnce('img_1', submitUpscale('img_1'))).toBeNull();
    expect(core.argsOf('jobs:submit').slice(before)).toHaveLength(1);

    // Once it has ended, a press is a new upscale ("Upscale again").
    jobList.upsert({ ...job, state: 'succeeded', finishedAt: 50 });
    expect(jobList.upscaledBefore('img_1')).toBe(true);
    const again = await jobList.upscaleOnce('img_1', submitUpscale('img_1'));
    await settle();
    expect(again?.ok).toBe(true);
    expect(core.argsOf('jobs:submit').slice(before)).toHaveLength(2);
  });
});

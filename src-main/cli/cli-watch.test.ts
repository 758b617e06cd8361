// `atelier watch` as a subprocess: it follows jobs a previous run submitted (without --wait),
// reports them as they end, and stops cleanly on SIGINT with one JSON document.
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, filesContaining, SENTINEL_KEY, type CliHarness } from './test-support/cli-harness.ts';

let h: CliHarness;

beforeAll(async () => {
  h = await createHarness();
});

afterAll(async () => {
  for (const text of h.outputs) expect(text).not.toContain(SENTINEL_KEY);
  expect(filesContaining(h.root, SENTINEL_KEY)).toEqual([]);
  await h.close();
});

interface JobDoc {
  jobId: string;
  localId: number;
  state: string;
  outputs: { id: string; path: string | null }[];
}

describe('watch', () => {
  it('picks up a job submitted by a previous run, reports its end and stops cleanly on SIGINT', async () => {
    const submitted = await h.run([
      '--json',
      'generate',
      'image',
      '--model',
      'imageb',
      '--prompt',
      'a red kite over the dunes',
    ]);
    expect(submitted.code, submitted.stderr).toBe(0);
    const job = JSON.parse(submitted.stdout) as JobDoc;
    expect(job.state).toBe('queued');

    const watching = h.start(['--json', 'watch'], { timeoutMs: 40_000 });
    await watching.waitFor(/watching 1 job\(s\)/);
    await watching.waitFor(new RegExp(`job ${job.jobId}: succeeded`), 30_000);
    watching.child.kill('SIGINT');
    const ended = await watching.exited;
    expect(ended.code, `${ended.stderr}\n--stdout--\n${ended.stdout}`).toBe(0);
    expect(ended.stderr).toContain('stopping');
    const summary = JSON.parse(ended.stdout) as { stopped: boolean; finishedJobs: JobDoc[] };
    expect(summary.stopped).toBe(true);
    expect(summary.finishedJobs.map((j) => j.jobId)).toEqual([job.jobId]);

    // The job stays done for the next run; nothing is left in flight.
    const after = JSON.parse((await h.run(['--json', 'jobs', 'get', job.jobId])).stdout) as JobDoc;
    expect(after.state).toBe('succeeded');
    const again = h.start(['watch']);
    await again.waitFor(/watching 0 job\(s\)/);
    again.child.kill('SIGINT');
    expect((await again.exited).code).toBe(0);
    // Auto-download (on by default) put the output in the library while watching, or it resumes next run.
    expect(after.outputs[0]!.path === null || existsSync(after.outputs[0]!.path)).toBe(true);
  }, 60_000);

  it('stops a --wait on SIGINT with exit 130, and the job is still followed afterwards', async () => {
    const waiting = h.start([
      'generate',
      'video',
      '--model',
      'videoa-3.1-fast',
      '--prompt',
      'tide pools',
      '--option',
      'duration=4',
      '--wait',
    ]);
    await waiting.waitFor(/submitted video job (\S+)/);
    const jobId = /submitted video job (\S+)/.exec(waiting.output().stderr)![1]!;
    waiting.child.kill('SIGINT');
    const stopped = await waiting.exited;
    expect(stopped.code).toBe(130);
    expect(stopped.stderr).toContain(`atelier jobs wait ${jobId}`);
    const resumed = await h.run(['--json', 'jobs', 'wait', jobId], { timeoutMs: 40_000 });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect((JSON.parse(resumed.stdout) as JobDoc).state).toBe('succeeded');
  }, 60_000);
});

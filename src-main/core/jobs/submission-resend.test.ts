// Resending what certainly never arrived (issue 28, item 2), against the real emulator and its
// fault knobs: a 429 or 503 answer and a refused connection wait and send the SAME row again; a
// request whose fate is unknown is sent again only once the job list shows nothing arrived.
import { afterEach, describe, expect, it } from 'vitest';
import { createServiceClient } from '../api/service-client.ts';
import { closedPortUrl } from '../api/test-support/local-checks.ts';
import { silentLogger } from '../log/index.ts';
import { RECONCILE_WINDOW } from './reconcile.ts';
import { classifySubmitFailure, resendDelay } from './resend-policy.ts';
import { jobsServiceFromClient } from './service-port.ts';
import { imageBody, startEngineHarness, type EngineHarness } from './test-support/engine-harness.ts';
import { AppError } from '../../contract/errors.ts';

let h: EngineHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const posts = (harness: EngineHarness): number =>
  harness.emulator.control.stats().byRoute['POST /images/generation'] ?? 0;

async function until(harness: EngineHarness, done: () => boolean, stepMs: number, steps: number): Promise<void> {
  for (let i = 0; i < steps && !done(); i += 1) await harness.advance(stepMs);
}

describe('resend policy', () => {
  const fail = (info: ConstructorParameters<typeof AppError>[0], unsent = false) =>
    Object.assign(new AppError(info), { unsent });

  it('reads 429, 503 and a connection that never opened as "not taken"; other 5xx and resets as unknown', () => {
    expect(classifySubmitFailure(fail({ code: 'rate_limited', message: 'busy', httpStatus: 429 }))).toBe('not_taken');
    expect(classifySubmitFailure(fail({ code: 'server', message: 'down', httpStatus: 503 }))).toBe('not_taken');
    expect(classifySubmitFailure(fail({ code: 'network', message: 'refused' }, true))).toBe('not_taken');
    expect(classifySubmitFailure(fail({ code: 'network', message: 'reset' }))).toBe('unknown');
    expect(classifySubmitFailure(fail({ code: 'server', message: 'gateway', httpStatus: 504 }))).toBe('unknown');
    expect(classifySubmitFailure(fail({ code: 'server', message: 'oops', httpStatus: 500 }))).toBe('unknown');
    expect(classifySubmitFailure(fail({ code: 'validation', message: 'bad', httpStatus: 400 }))).toBe('refused');
    expect(classifySubmitFailure(fail({ code: 'auth', message: 'key', httpStatus: 401 }))).toBe('refused');
  });

  it('waits the Retry-After (a floor, capped at a minute) or a capped jittered backoff', () => {
    const busy = { code: 'rate_limited' as const, message: 'busy', httpStatus: 429, retryAfterMs: 2_000 };
    for (const r of [0, 0.5, 0.99]) {
      const wait = resendDelay(busy, 1, () => r);
      expect(wait).toBeGreaterThanOrEqual(2_000);
      expect(wait).toBeLessThanOrEqual(2_200);
    }
    expect(resendDelay({ ...busy, retryAfterMs: 3_600_000 }, 1, () => 0.5)).toBeLessThanOrEqual(60_000);
    const down = { code: 'server' as const, message: 'down', httpStatus: 503 };
    expect(resendDelay(down, 20, () => 0.999)).toBeLessThanOrEqual(60_000);
    expect(resendDelay(down, 1, () => 0.999)).toBeLessThanOrEqual(2_000);
  });
});

describe('resending a submission', () => {
  it('waits out a 429 with Retry-After and sends the same row again', async () => {
    h = await startEngineHarness();
    h.engine.start();
    h.emulator.control.setFaults({
      rules: [{ method: 'POST', path: '/images/generation', rateLimit: { count: 1, retryAfterSeconds: 2 } }],
    });
    const job = await h.engine.submit({ kind: 'image', body: imageBody('busy service') });
    expect(job).toMatchObject({ state: 'submitting', jobId: null, canCancelResend: true });
    expect(job.error).toMatch(/^Waiting 2 s: the service is busy/);
    expect(job.resendAt! - h.time.now()).toBeGreaterThanOrEqual(2_000);
    await h.advance(1_000);
    expect(posts(h)).toBe(1); // not before the Retry-After
    await h.advance(1_300);
    expect(posts(h)).toBe(2);
    const sent = h.engine.get(job.localId);
    expect(sent).toMatchObject({ localId: job.localId, error: null, resendAt: null });
    expect(['queued', 'running']).toContain(sent.state);
    expect(h.engine.list()).toHaveLength(1);
  });

  it('sends a request answered 503 again as the same row instead of leaving it unknown', async () => {
    h = await startEngineHarness();
    h.engine.start();
    h.emulator.control.setFaults({
      rules: [{ method: 'POST', path: '/images/generation', serverError: { count: 2, status: 503 } }],
    });
    const job = await h.engine.submit({ kind: 'image', body: imageBody('unavailable') });
    expect(job.error).toMatch(/^Waiting \d+ s: the service is unavailable/);
    await until(h, () => h!.engine.get(job.localId).jobId !== null, 1_000, 20);
    expect(posts(h)).toBe(3);
    await until(h, () => h!.engine.get(job.localId).state === 'succeeded', 5_000, 10);
    expect(h.engine.get(job.localId)).toMatchObject({ state: 'succeeded', prompt: 'unavailable' });
  });

  it('keeps trying a refused connection as a waiting row, and the user can cancel it (then it fails: nothing was sent)', async () => {
    const refused = createServiceClient({
      baseUrl: await closedPortUrl(),
      getApiKey: () => 'demo-key',
      logger: silentLogger(),
      retry: { maxAttempts: 1 },
    });
    h = await startEngineHarness({ engine: { service: jobsServiceFromClient(refused) } });
    h.engine.start();
    const job = await h.engine.submit({ kind: 'image', body: imageBody('never sent') });
    expect(job).toMatchObject({ state: 'submitting', canCancelResend: true });
    expect(job.error).toMatch(/the service could not be reached/);
    const cancelled = h.engine.cancelResend(job.localId);
    expect(cancelled).toMatchObject({ state: 'failed', canResubmit: true, canCancelResend: false, resendAt: null });
    expect(cancelled.error).toMatch(/cancelled/);
    expect(() => h!.engine.cancelResend(job.localId)).toThrow(/not waiting/);
    await h.advance(120_000);
    expect(h.engine.get(job.localId).state).toBe('failed');
    refused.close();
  });

  it('sends a dropped request again once the job list shows it never arrived, and only then', async () => {
    h = await startEngineHarness();
    h.engine.start();
    h.emulator.control.setFaults({
      rules: [{ method: 'POST', path: '/images/generation', dropConnection: { count: 1 } }],
    });
    const job = await h.engine.submit({ kind: 'image', body: imageBody('dropped') });
    expect(job.state).toBe('submitting');
    await h.advance(RECONCILE_WINDOW.afterMs - 10_000);
    expect(posts(h)).toBe(1); // its window is open: it may still land
    await until(h, () => h!.engine.get(job.localId).jobId !== null, 5_000, 10);
    expect(posts(h)).toBe(2);
    expect(h.engine.get(job.localId)).toMatchObject({ localId: job.localId, prompt: 'dropped' });
    expect(h.engine.list()).toHaveLength(1);
  });

  it('never sends again a request whose job did arrive (its answer was cut off): adopts it instead', async () => {
    h = await startEngineHarness();
    h.engine.start();
    h.emulator.control.setFaults({
      rules: [{ method: 'POST', path: '/images/generation', truncateBody: { count: 1 } }],
    });
    const job = await h.engine.submit({ kind: 'image', body: imageBody('arrived') });
    await until(h, () => h!.engine.get(job.localId).state === 'succeeded', 10_000, 40);
    expect(h.engine.get(job.localId)).toMatchObject({ state: 'succeeded', prompt: 'arrived' });
    expect(posts(h)).toBe(1);
  });
});

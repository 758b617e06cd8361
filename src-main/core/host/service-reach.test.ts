// Connectivity measured against the real emulator on loopback: a check when a service is followed,
// retries with backoff while it is down (timers driven by hand, so no test waits on the wall clock),
// the OS's online signal, and the refusal paid work meets.
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../../emulator/index.ts';
import { createServiceClient, type ServiceClient } from '../api/index.ts';
import { createEventBus } from '../events.ts';
import { silentLogger } from '../log/logger.ts';
import { createPowerSignalHub } from './power-signals.ts';
import { createServiceReach, REACH_RETRY_DELAYS_MS, UNREACHABLE_REFUSAL, type ServiceReach } from './service-reach.ts';

interface Pending {
  fn: () => void;
  ms: number;
  cleared: boolean;
}

function manualTimers() {
  const pending: Pending[] = [];
  return {
    pending,
    timers: {
      setTimeout: (fn: () => void, ms: number): unknown => {
        const timer: Pending = { fn, ms, cleared: false };
        pending.push(timer);
        return timer;
      },
      clearTimeout: (handle: unknown): void => {
        (handle as Pending).cleared = true;
      },
    },
    /** The one retry waiting now, if any. */
    waiting: (): Pending | undefined => pending.filter((t) => !t.cleared).at(-1),
  };
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function emulatorOn(port = 0): Promise<RunningEmulator> {
  const emulator = await startEmulator({ port });
  cleanups.push(() => emulator.close());
  return emulator;
}

/** An address where nothing listens: an emulator's port, closed again. */
async function deadPort(): Promise<number> {
  const emulator = await startEmulator({ port: 0 });
  const port = Number(new URL(emulator.url).port);
  await emulator.close();
  return port;
}

function setUp(port: number, extra: { power?: ReturnType<typeof createPowerSignalHub> } = {}) {
  const events = createEventBus();
  const seen: unknown[] = [];
  events.subscribe((event, payload) => {
    if (event === 'service:reach') seen.push(payload);
  });
  const clock = manualTimers();
  let backs = 0;
  let client: ServiceClient | null = null;
  const reach: ServiceReach = createServiceReach({
    events,
    timers: clock.timers,
    onBack: () => (backs += 1),
    ...(extra.power ? { power: extra.power } : {}),
  });
  client = createServiceClient({
    baseUrl: `http://127.0.0.1:${port}`,
    getApiKey: () => 'demo-key',
    logger: silentLogger(),
    retry: { maxAttempts: 1 },
    onReach: reach.report,
  });
  const probeClient = client;
  cleanups.push(() => {
    reach.close();
    probeClient.close();
  });
  return { reach, seen, clock, backs: () => backs, probe: () => probeClient.listPresets() };
}

/** Runs the retry that waits now and lets its check finish. */
async function fire(clock: ReturnType<typeof manualTimers>, reach: ServiceReach): Promise<number> {
  const timer = clock.waiting();
  if (!timer) throw new Error('no retry is waiting');
  timer.cleared = true;
  timer.fn();
  await reach.check();
  return timer.ms;
}

describe('createServiceReach', () => {
  it('checks a service as soon as it follows it, and says so once', async () => {
    const emulator = await emulatorOn();
    const { reach, seen, clock, probe } = setUp(Number(new URL(emulator.url).port));
    expect(reach.info()).toEqual({ reachable: null });
    reach.follow(probe);
    await reach.check();
    expect(reach.info()).toEqual({ reachable: true });
    expect(seen).toEqual([{ reachable: true }]);
    expect(emulator.control.stats().byRoute['GET /presets']).toBe(1);
    expect(clock.waiting()).toBeUndefined();
  });

  it('started with the service down: says so, retries on its own with growing delays up to 30 s, and recovers without being asked', async () => {
    const port = await deadPort();
    const { reach, seen, clock, backs, probe } = setUp(port);
    reach.follow(probe);
    await reach.check();
    expect(seen).toEqual([{ reachable: false }]);

    const delays: number[] = [];
    for (let i = 0; i < REACH_RETRY_DELAYS_MS.length + 2; i += 1) delays.push(await fire(clock, reach));
    expect(delays).toEqual([2_000, 4_000, 8_000, 15_000, 30_000, 30_000, 30_000]);
    expect(seen).toEqual([{ reachable: false }]);

    const emulator = await emulatorOn(port);
    await fire(clock, reach);
    expect(seen).toEqual([{ reachable: false }, { reachable: true }]);
    expect(backs()).toBe(1);
    expect(clock.waiting()).toBeUndefined();
    expect(emulator.control.stats().byRoute['GET /presets']).toBe(1);
  });

  it('a failed request of any kind starts the retries; the next answer ends them and starts again from a short delay', async () => {
    const port = await deadPort();
    const { reach, seen, clock, probe } = setUp(port);
    reach.follow(probe);
    await reach.check();
    await fire(clock, reach);
    expect(clock.waiting()?.ms).toBe(4_000);
    await emulatorOn(port);
    reach.report(true); // another request got an answer
    expect(clock.waiting()).toBeUndefined();
    reach.report(false); // and the next one did not
    expect(clock.waiting()?.ms).toBe(2_000);
    expect(seen).toEqual([{ reachable: false }, { reachable: true }, { reachable: false }]);
  });

  it('checks at once when the OS says the network is back or the machine wakes, without waiting for the retry', async () => {
    const port = await deadPort();
    const power = createPowerSignalHub({ online: true });
    const { reach, seen, probe } = setUp(port, { power });
    reach.follow(probe);
    await reach.check();
    const emulator = await emulatorOn(port);
    power.setOnline(false);
    power.setOnline(true);
    await reach.check();
    expect(seen).toEqual([{ reachable: false }, { reachable: true }]);
    expect(emulator.control.stats().byRoute['GET /presets']).toBeGreaterThanOrEqual(1);
  });

  it('checks at once when the machine wakes', async () => {
    const port = await deadPort();
    const power = createPowerSignalHub({ online: true });
    const { reach, seen, probe } = setUp(port, { power });
    reach.follow(probe);
    await reach.check();
    const emulator = await emulatorOn(port);
    power.resume();
    await reach.check();
    expect(seen).toEqual([{ reachable: false }, { reachable: true }]);
    expect(emulator.control.stats().byRoute['GET /presets']).toBe(1);
  });

  it('refuses paid work while the service cannot be reached, after checking again; lets it through once it answers', async () => {
    const port = await deadPort();
    const { reach, probe } = setUp(port);
    reach.follow(probe);
    await reach.check();
    const refusal = await reach.refusal();
    expect(refusal?.info).toEqual({ code: 'offline', message: UNREACHABLE_REFUSAL });
    await emulatorOn(port);
    expect(await reach.refusal()).toBeNull();
    expect(reach.info()).toEqual({ reachable: true });
  });

  it('a host that follows no service (the CLI) never refuses on a stale outcome', async () => {
    const port = await deadPort();
    const { reach } = setUp(port);
    reach.report(false);
    expect(await reach.refusal()).toBeNull();
  });

  it("a switch forgets the previous service's state and ignores its checks still in flight", async () => {
    const emulator = await emulatorOn();
    const port = await deadPort();
    const { reach, probe } = setUp(port);
    reach.follow(probe);
    const stale = reach.check();
    const other = setUp(Number(new URL(emulator.url).port));
    reach.follow(other.probe);
    await stale;
    await reach.check();
    expect(reach.info()).toEqual({ reachable: true });
  });
});

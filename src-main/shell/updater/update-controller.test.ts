import { describe, expect, it } from 'vitest';
import { createUpdateController, type CheckOutcome, type UpdateSource } from './update-controller.ts';
import {
  CHECK_INTERVAL_MS,
  FIRST_CHECK_DELAY_MS,
  IDLE_SETTLE_MS,
  NOTHING_IN_FLIGHT,
  OFFLINE_RETRY_MS,
  type InFlight,
  type UpdateOffer,
} from './update-policy.ts';

/** A fake clock with timers that fire in order when time moves. */
function fakeTime() {
  let now = 0;
  let nextId = 1;
  const timers = new Map<number, { at: number; run: () => void }>();
  return {
    now: () => now,
    timers: {
      setTimeout: (run: () => void, ms: number) => {
        const id = nextId++;
        timers.set(id, { at: now + ms, run });
        return id;
      },
      clearTimeout: (handle: unknown) => void timers.delete(handle as number),
    },
    /** Delays of the timers pending now. */
    pending: () => [...timers.values()].map((timer) => timer.at - now),
    async advance(ms: number) {
      const until = now + ms;
      for (;;) {
        const due = [...timers.entries()].filter(([, t]) => t.at <= until).sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        timers.delete(due[0]);
        now = due[1].at;
        due[1].run();
        // Let the check's promise chain run.
        for (let i = 0; i < 10; i++) await Promise.resolve();
      }
      now = until;
    },
  };
}

function setUp(outcomes: (CheckOutcome | Error)[], options: { downloadFails?: Error; installFails?: Error } = {}) {
  const time = fakeTime();
  const calls: string[] = [];
  const source: UpdateSource = {
    async check() {
      calls.push('check');
      const next = outcomes.shift() ?? { kind: 'none', latest: '1.0.0' };
      if (next instanceof Error) throw next;
      return next;
    },
    async download(onProgress) {
      calls.push('download');
      onProgress(50);
      if (options.downloadFails) throw options.downloadFails;
    },
    install() {
      calls.push('install');
      if (options.installFails) throw options.installFails;
    },
  };
  let inFlight: InFlight = NOTHING_IN_FLIGHT;
  const listeners = new Set<() => void>();
  const lines: string[] = [];
  const offers: (UpdateOffer | null)[] = [];
  const notified: string[] = [];
  const controller = createUpdateController({
    source,
    inFlight: {
      current: () => inFlight,
      subscribe: (listener) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    },
    log: { info: (m) => lines.push(`info ${m}`), warn: (m) => lines.push(`warn ${m}`) },
    onOffer: (offer) => offers.push(offer),
    notifyReady: (version) => notified.push(version),
    now: time.now,
    timers: time.timers,
  });
  return {
    time,
    calls,
    lines,
    offers,
    notified,
    controller,
    listeners,
    work(next: Partial<InFlight>) {
      inFlight = { ...NOTHING_IN_FLIGHT, ...next };
      for (const listener of listeners) listener();
    },
  };
}

const available = (version: string): CheckOutcome => ({ kind: 'available', version });

describe('update controller', () => {
  it('checks shortly after start, then every six hours', async () => {
    const t = setUp([]);
    t.controller.start();
    expect(t.calls).toEqual([]);
    expect(t.time.pending()).toEqual([FIRST_CHECK_DELAY_MS]);
    await t.time.advance(FIRST_CHECK_DELAY_MS);
    expect(t.calls).toEqual(['check']);
    expect(t.time.pending()).toEqual([CHECK_INTERVAL_MS]);
    await t.time.advance(CHECK_INTERVAL_MS);
    expect(t.calls).toEqual(['check', 'check']);
    t.controller.stop();
    expect(t.time.pending()).toEqual([]);
  });

  it('downloads a new version in the background, then offers it and notifies once', async () => {
    const t = setUp([available('1.2.0')]);
    t.controller.start();
    await t.time.advance(FIRST_CHECK_DELAY_MS);
    expect(t.calls).toEqual(['check', 'download']);
    expect(t.offers).toEqual([{ version: '1.2.0', label: 'Restart to Update', enabled: true }]);
    expect(t.notified).toEqual(['1.2.0']);
    expect(t.controller.offer()).toEqual({ version: '1.2.0', label: 'Restart to Update', enabled: true });
    // Downloaded: no more checks (a later one would not replace what is ready).
    await t.time.advance(CHECK_INTERVAL_MS * 2);
    expect(t.calls).toEqual(['check', 'download']);
  });

  it('restarts at once when nothing is in flight', async () => {
    const t = setUp([available('1.2.0')]);
    t.controller.start();
    await t.time.advance(FIRST_CHECK_DELAY_MS);
    t.controller.restartToUpdate();
    expect(t.calls).toEqual(['check', 'download', 'install']);
    expect(t.controller.phase()).toEqual({ kind: 'installing', version: '1.2.0' });
  });

  it('never restarts over uploads, submissions or downloads: waits, then restarts once settled', async () => {
    const t = setUp([available('1.2.0')]);
    t.controller.start();
    t.work({ uploads: 1, submissions: 1 });
    await t.time.advance(FIRST_CHECK_DELAY_MS);
    t.controller.restartToUpdate();
    expect(t.calls).not.toContain('install');
    expect(t.offers.at(-1)).toEqual({
      version: '1.2.0',
      label: 'Update Waits for 1 job being sent and 1 upload…',
      enabled: false,
    });
    t.work({ uploads: 1 });
    expect(t.offers.at(-1)?.label).toBe('Update Waits for 1 upload…');
    // Between two uploads: idle for a moment only.
    t.work({});
    await t.time.advance(IDLE_SETTLE_MS - 1_000);
    t.work({ uploads: 1 });
    await t.time.advance(IDLE_SETTLE_MS);
    expect(t.calls).not.toContain('install');
    t.work({ downloads: 2 });
    t.work({});
    await t.time.advance(IDLE_SETTLE_MS - 1);
    expect(t.calls).not.toContain('install');
    await t.time.advance(1);
    expect(t.calls).toContain('install');
  });

  it('does nothing on its own while work runs and the user has not asked', async () => {
    const t = setUp([available('1.2.0')]);
    t.controller.start();
    await t.time.advance(FIRST_CHECK_DELAY_MS);
    t.work({ downloads: 1 });
    t.work({});
    await t.time.advance(CHECK_INTERVAL_MS);
    expect(t.calls).not.toContain('install');
  });

  it('logs failures quietly and retries: offline sooner, the rest at the regular interval', async () => {
    const offline = Object.assign(new Error('getaddrinfo ENOTFOUND updates.example.com'), { code: 'ENOTFOUND' });
    const t = setUp([offline, new Error('bad feed'), { kind: 'none', latest: '1.0.0' }]);
    t.controller.start();
    await t.time.advance(FIRST_CHECK_DELAY_MS);
    expect(t.lines).toEqual(['info update check skipped, offline (ENOTFOUND)']);
    expect(t.time.pending()).toEqual([OFFLINE_RETRY_MS]);
    await t.time.advance(OFFLINE_RETRY_MS);
    expect(t.lines.at(-1)).toBe('warn update failed: bad feed');
    expect(t.time.pending()).toEqual([CHECK_INTERVAL_MS]);
    await t.time.advance(CHECK_INTERVAL_MS);
    expect(t.calls).toEqual(['check', 'check', 'check']);
    expect(t.offers.every((offer) => offer === null)).toBe(true);
  });

  it('goes back to checking after a failed download', async () => {
    const t = setUp([available('1.2.0'), available('1.2.0')], { downloadFails: new Error('socket hang up') });
    t.controller.start();
    await t.time.advance(FIRST_CHECK_DELAY_MS);
    expect(t.controller.phase()).toEqual({ kind: 'idle' });
    expect(t.notified).toEqual([]);
    expect(t.lines.at(-1)).toBe('warn update failed: socket hang up');
    expect(t.time.pending()).toEqual([CHECK_INTERVAL_MS]);
  });

  it('stops checking where electron-updater does not run (e.g. a Linux install it cannot update)', async () => {
    const t = setUp([{ kind: 'inactive', reason: 'electron-updater is not active for this install' }]);
    t.controller.start();
    await t.time.advance(FIRST_CHECK_DELAY_MS);
    expect(t.controller.phase().kind).toBe('unsupported');
    expect(t.time.pending()).toEqual([]);
  });

  it('keeps the update for the next quit when installing fails', async () => {
    const t = setUp([available('1.2.0')], { installFails: new Error('EACCES') });
    t.controller.start();
    await t.time.advance(FIRST_CHECK_DELAY_MS);
    t.controller.restartToUpdate();
    expect(t.controller.phase()).toEqual({ kind: 'ready', version: '1.2.0', restartRequested: false });
    expect(t.lines.at(-1)).toBe('warn could not install 1.2.0; it installs on the next quit');
  });

  it('runs one check at a time and ignores a restart request before anything is downloaded', async () => {
    const t = setUp([]);
    await Promise.all([t.controller.checkNow(), t.controller.checkNow()]);
    expect(t.calls).toEqual(['check']);
    t.controller.restartToUpdate();
    expect(t.calls).toEqual(['check']);
  });

  it('stops following work in flight when stopped', () => {
    const t = setUp([]);
    t.controller.start();
    expect(t.listeners.size).toBe(1);
    t.controller.stop();
    expect(t.listeners.size).toBe(0);
  });
});

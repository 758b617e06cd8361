import { describe, expect, it } from 'vitest';
import {
  CHECK_INTERVAL_MS,
  classifyUpdateError,
  IDLE_SETTLE_MS,
  inFlightSummary,
  NOTHING_IN_FLIGHT,
  OFFLINE_RETRY_MS,
  readyNotification,
  restartDecision,
  updateOffer,
  updatesAvailability,
} from './update-policy.ts';

describe('whether updates run', () => {
  it('runs in packaged builds, demo mode included, and never in development', () => {
    expect(updatesAvailability({ isPackaged: true, env: {} })).toEqual({ enabled: true });
    expect(updatesAvailability({ isPackaged: true, env: { ATELIER_DEMO: '1' } })).toEqual({ enabled: true });
    expect(updatesAvailability({ isPackaged: false, env: {} })).toEqual({
      enabled: false,
      reason: 'a development build (not packaged)',
    });
  });

  it('can be turned off for managed installs', () => {
    expect(updatesAvailability({ isPackaged: true, env: { ATELIER_DISABLE_UPDATES: '1' } })).toEqual({
      enabled: false,
      reason: 'turned off by ATELIER_DISABLE_UPDATES=1',
    });
    expect(updatesAvailability({ isPackaged: true, env: { ATELIER_DISABLE_UPDATES: '0' } }).enabled).toBe(true);
  });

  it('checks every six hours', () => {
    expect(CHECK_INTERVAL_MS).toBe(21_600_000);
  });
});

describe('work in flight', () => {
  it('names what a restart would cut off, with plurals', () => {
    expect(inFlightSummary(NOTHING_IN_FLIGHT)).toBeNull();
    expect(inFlightSummary({ ...NOTHING_IN_FLIGHT, uploads: 1 })).toBe('1 upload');
    expect(inFlightSummary({ ...NOTHING_IN_FLIGHT, downloads: 3, uploads: 2 })).toBe('2 uploads and 3 downloads');
    expect(inFlightSummary({ submissions: 1, uploads: 0, downloads: 1, libraryMove: true })).toBe(
      '1 job being sent, 1 download and the library move',
    );
    expect(inFlightSummary({ ...NOTHING_IN_FLIGHT, submissions: 2 })).toBe('2 jobs being sent');
  });

  it('treats nonsense counts as nothing', () => {
    expect(inFlightSummary({ submissions: Number.NaN, uploads: -1, downloads: 0.4, libraryMove: false })).toBeNull();
  });
});

describe('whether a restart may happen now', () => {
  const now = 1_000_000;

  it('never restarts over submissions, uploads, downloads or a library move', () => {
    for (const busy of [
      { ...NOTHING_IN_FLIGHT, submissions: 1 },
      { ...NOTHING_IN_FLIGHT, uploads: 1 },
      { ...NOTHING_IN_FLIGHT, downloads: 1 },
      { ...NOTHING_IN_FLIGHT, libraryMove: true },
    ]) {
      const decision = restartDecision(busy, now - 60_000, now);
      expect(decision.now).toBe(false);
    }
    expect(restartDecision({ ...NOTHING_IN_FLIGHT, uploads: 2 }, null, now)).toEqual({
      now: false,
      waitingFor: '2 uploads',
    });
  });

  it('waits until idle has lasted a moment, so the gap between two queued uploads does not count', () => {
    expect(restartDecision(NOTHING_IN_FLIGHT, now - 10, now)).toEqual({ now: false, waitingFor: 'work to settle' });
    expect(restartDecision(NOTHING_IN_FLIGHT, null, now)).toEqual({ now: false, waitingFor: 'work to settle' });
    expect(restartDecision(NOTHING_IN_FLIGHT, now - IDLE_SETTLE_MS, now)).toEqual({ now: true });
  });
});

describe('what menu and tray offer', () => {
  it('offers nothing until an update is downloaded', () => {
    expect(updateOffer({ kind: 'idle' }, NOTHING_IN_FLIGHT)).toBeNull();
    expect(updateOffer({ kind: 'checking' }, NOTHING_IN_FLIGHT)).toBeNull();
    expect(updateOffer({ kind: 'downloading', version: '1.2.0', percent: 40 }, NOTHING_IN_FLIGHT)).toBeNull();
    expect(updateOffer({ kind: 'unsupported', reason: 'deb without pkexec' }, NOTHING_IN_FLIGHT)).toBeNull();
  });

  it('offers Restart to Update once downloaded, even while work runs (the click then waits)', () => {
    const ready = { kind: 'ready', version: '1.2.0', restartRequested: false } as const;
    expect(updateOffer(ready, NOTHING_IN_FLIGHT)).toEqual({
      version: '1.2.0',
      label: 'Restart to Update',
      enabled: true,
    });
    expect(updateOffer(ready, { ...NOTHING_IN_FLIGHT, uploads: 3 })?.enabled).toBe(true);
  });

  it('says what a requested restart waits for, and disables the item meanwhile', () => {
    const waiting = { kind: 'ready', version: '1.2.0', restartRequested: true } as const;
    expect(updateOffer(waiting, { ...NOTHING_IN_FLIGHT, downloads: 1 })).toEqual({
      version: '1.2.0',
      label: 'Update Waits for 1 download…',
      enabled: false,
    });
    expect(updateOffer(waiting, NOTHING_IN_FLIGHT)?.label).toBe('Restarting to Update…');
    expect(updateOffer({ kind: 'installing', version: '1.2.0' }, NOTHING_IN_FLIGHT)).toEqual({
      version: '1.2.0',
      label: 'Restarting to Update…',
      enabled: false,
    });
  });

  it('words the notification', () => {
    expect(readyNotification('Atelier', '1.2.0')).toEqual({
      title: 'Atelier 1.2.0 is ready',
      body: 'Click to restart now, or it installs the next time you quit. Work in progress is never cut off.',
    });
  });
});

describe('failures', () => {
  const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

  it('treats network failures as offline: info level and a sooner retry', () => {
    for (const error of [
      withCode('getaddrinfo ENOTFOUND updates.example.com', 'ENOTFOUND'),
      withCode('connect ECONNREFUSED 127.0.0.1:9', 'ECONNREFUSED'),
      new Error('net::ERR_INTERNET_DISCONNECTED'),
      new Error('net::ERR_NAME_NOT_RESOLVED'),
      new Error('net::ERR_PROXY_CONNECTION_FAILED'),
    ]) {
      const outcome = classifyUpdateError(error);
      expect(outcome.kind).toBe('offline');
      expect(outcome.level).toBe('info');
      expect(outcome.retryInMs).toBe(OFFLINE_RETRY_MS);
    }
  });

  it('warns once about a feed that is not there, and tries again at the regular interval', () => {
    const missing = withCode(
      'Cannot find channel "latest.yml" update info: HttpError: 404',
      'ERR_UPDATER_CHANNEL_FILE_NOT_FOUND',
    );
    expect(classifyUpdateError(missing)).toEqual({
      kind: 'no-feed',
      message: 'no update feed answered (Cannot find channel "latest.yml" update info: HttpError: 404)',
      level: 'warn',
      retryInMs: CHECK_INTERVAL_MS,
    });
    expect(classifyUpdateError(Object.assign(new Error('Not Found'), { statusCode: 404 })).kind).toBe('no-feed');
  });

  it('warns about anything else with its first line only', () => {
    expect(classifyUpdateError(new Error('sha512 checksum mismatch, expected a, got b\n    at stack'))).toEqual({
      kind: 'failed',
      message: 'update failed: sha512 checksum mismatch, expected a, got b',
      level: 'warn',
      retryInMs: CHECK_INTERVAL_MS,
    });
    expect(classifyUpdateError('plain text').message).toBe('update failed: plain text');
    expect(classifyUpdateError({ odd: true }).message).toBe('update failed: {"odd":true}');
  });
});

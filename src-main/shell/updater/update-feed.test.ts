// The update policy against a real feed: a loopback HTTP server serves latest.yml (in the format
// electron-builder writes) and an installer file; electron-updater's own code (AppUpdater,
// GenericProvider, js-yaml, semver, the sha512-checked download) reads it, under plain Node
// (test-support/node-feed-updater.ts), through the same electronUpdaterSource the app uses.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { electronUpdaterSource } from './electron-updater-source.ts';
import { NodeFeedUpdater } from './test-support/node-feed-updater.ts';
import { createUpdateController, type InFlightSource, type Timers } from './update-controller.ts';
import {
  CHECK_INTERVAL_MS,
  NOTHING_IN_FLIGHT,
  OFFLINE_RETRY_MS,
  type InFlight,
  type UpdateOffer,
} from './update-policy.ts';

const INSTALLER = Buffer.from('pretend this is Atelier 1.2.0 for this platform\n'.repeat(2000));
const sha512 = (bytes: Buffer): string => createHash('sha512').update(bytes).digest('base64');

/** latest.yml as electron-builder writes it next to the installers. */
function latestYml(version: string, file: string, bytes: Buffer, extra = ''): string {
  return [
    `version: ${version}`,
    'files:',
    `  - url: ${file}`,
    `    sha512: ${sha512(bytes)}`,
    `    size: ${bytes.length}`,
    `path: ${file}`,
    `sha512: ${sha512(bytes)}`,
    `releaseDate: '2026-05-01T10:00:00.000Z'`,
    extra,
  ].join('\n');
}

interface Feed {
  url: string;
  requests: string[];
  /** Path → body (a string or bytes); anything else answers 404. */
  files: Map<string, string | Buffer>;
  close(): Promise<void>;
}

async function startFeed(): Promise<Feed> {
  const requests: string[] = [];
  const files = new Map<string, string | Buffer>();
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    requests.push(path);
    // One channel file for every platform: latest.yml (Windows), latest-mac.yml, latest-linux*.yml.
    const key = /^\/updates\/latest(-[a-z0-9-]+)?\.yml$/.test(path) ? '/updates/latest.yml' : path;
    const body = files.get(key);
    if (body === undefined) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, { 'content-length': Buffer.byteLength(body) }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/updates`,
    requests,
    files,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Timers the test fires by hand; the delay of each is kept. */
function manualTimers() {
  const pending: { run: () => void; ms: number }[] = [];
  const timers: Timers = {
    setTimeout: (run, ms) => {
      const entry = { run, ms };
      pending.push(entry);
      return entry;
    },
    clearTimeout: (handle) => {
      const at = pending.indexOf(handle as (typeof pending)[number]);
      if (at >= 0) pending.splice(at, 1);
    },
  };
  return { timers, pending };
}

function inFlightOf(initial: InFlight = NOTHING_IN_FLIGHT) {
  let value = initial;
  const listeners = new Set<() => void>();
  const source: InFlightSource = {
    current: () => value,
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return {
    source,
    set(next: InFlight) {
      value = next;
      for (const listener of listeners) listener();
    },
  };
}

let feed: Feed;
let dir: string;

beforeEach(async () => {
  feed = await startFeed();
  dir = mkdtempSync(join(tmpdir(), 'atelier-update-feed-'));
});

afterEach(async () => {
  await feed.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The app as electron-builder packages it: app-update.yml in resources names the feed. */
function installedApp(version: string, feedUrl = feed.url) {
  const resources = mkdtempSync(join(dir, 'resources-'));
  writeFileSync(
    join(resources, 'app-update.yml'),
    `provider: generic\nurl: ${feedUrl}\nupdaterCacheDirName: atelier-updater\n`,
  );
  const updater = new NodeFeedUpdater({ version, resourcesDir: resources, dataDir: dir });
  const lines: string[] = [];
  const log = {
    debug: (message: string) => lines.push(`debug ${message}`),
    info: (message: string) => lines.push(`info ${message}`),
    warn: (message: string) => lines.push(`warn ${message}`),
  };
  const offers: (UpdateOffer | null)[] = [];
  const notified: string[] = [];
  const { timers, pending } = manualTimers();
  const work = inFlightOf();
  let clock = 1_000_000;
  const controller = createUpdateController({
    source: electronUpdaterSource(updater, log),
    inFlight: work.source,
    log,
    onOffer: (offer) => offers.push(offer),
    notifyReady: (v) => notified.push(v),
    timers,
    now: () => clock,
  });
  return {
    updater,
    controller,
    lines,
    offers,
    notified,
    pending,
    work,
    advance: (ms: number) => void (clock += ms),
  };
}

describe('update feed on loopback (electron-updater reading a real latest.yml)', () => {
  it('finds a newer version, downloads and verifies it, and offers Restart to Update', async () => {
    feed.files.set('/updates/latest.yml', latestYml('1.2.0', 'Atelier-1.2.0.bin', INSTALLER));
    feed.files.set('/updates/Atelier-1.2.0.bin', INSTALLER);
    const app = installedApp('1.1.0');
    await app.controller.checkNow();

    expect(feed.requests[0]).toMatch(/^\/updates\/latest(-[a-z0-9-]+)?\.yml$/);
    expect(feed.requests).toContain('/updates/Atelier-1.2.0.bin');
    expect(app.controller.phase()).toEqual({ kind: 'ready', version: '1.2.0', restartRequested: false });
    expect(app.offers.at(-1)).toEqual({ version: '1.2.0', label: 'Restart to Update', enabled: true });
    expect(app.notified).toEqual(['1.2.0']);
    // No more checks once downloaded: it installs on quit, or through the offer.
    expect(app.pending).toEqual([]);
    expect(app.lines.filter((line) => line.startsWith('warn'))).toEqual([]);
  });

  it('restarts only once the uploads and downloads in flight are done', async () => {
    feed.files.set('/updates/latest.yml', latestYml('1.2.0', 'Atelier-1.2.0.bin', INSTALLER));
    feed.files.set('/updates/Atelier-1.2.0.bin', INSTALLER);
    const app = installedApp('1.1.0');
    app.controller.start();
    app.work.set({ ...NOTHING_IN_FLIGHT, uploads: 2, downloads: 1 });
    await app.controller.checkNow();

    app.controller.restartToUpdate();
    expect(app.updater.installs).toEqual([]);
    expect(app.offers.at(-1)).toEqual({
      version: '1.2.0',
      label: 'Update Waits for 2 uploads and 1 download…',
      enabled: false,
    });
    app.work.set({ ...NOTHING_IN_FLIGHT, downloads: 1 });
    expect(app.updater.installs).toEqual([]);
    app.work.set(NOTHING_IN_FLIGHT);
    // Idle, but not for long enough yet: the settle timer decides.
    expect(app.updater.installs).toEqual([]);
    app.advance(5_000);
    app.pending.find((timer) => timer.ms === 5_000)?.run();
    expect(app.updater.installs).toEqual([{ silent: true, forceRunAfter: true }]);
    expect(app.controller.phase()).toEqual({ kind: 'installing', version: '1.2.0' });
  });

  it('says up to date for the same version and never downgrades to an older one', async () => {
    feed.files.set('/updates/latest.yml', latestYml('1.1.0', 'Atelier-1.1.0.bin', INSTALLER));
    const same = installedApp('1.1.0');
    await same.controller.checkNow();
    expect(same.controller.phase()).toEqual({ kind: 'idle' });
    expect(same.lines).toContain("info up to date (the feed's latest is 1.1.0)");
    expect(same.pending.map((timer) => timer.ms)).toEqual([CHECK_INTERVAL_MS]);

    const newer = installedApp('2.0.0');
    await newer.controller.checkNow();
    expect(newer.controller.phase()).toEqual({ kind: 'idle' });
    expect(feed.requests.filter((path) => path.endsWith('.bin'))).toEqual([]);
  });

  it('leaves users outside a staged rollout on their version', async () => {
    feed.files.set('/updates/latest.yml', latestYml('1.2.0', 'Atelier-1.2.0.bin', INSTALLER, 'stagingPercentage: 0'));
    const app = installedApp('1.1.0');
    await app.controller.checkNow();
    expect(app.controller.phase()).toEqual({ kind: 'idle' });
    expect(app.offers.every((offer) => offer === null)).toBe(true);
  });

  it('refuses a download whose checksum does not match, quietly, and tries again in six hours', async () => {
    feed.files.set('/updates/latest.yml', latestYml('1.2.0', 'Atelier-1.2.0.bin', INSTALLER));
    feed.files.set('/updates/Atelier-1.2.0.bin', Buffer.concat([INSTALLER, Buffer.from('tampered')]));
    const app = installedApp('1.1.0');
    await app.controller.checkNow();
    expect(app.controller.phase()).toEqual({ kind: 'idle' });
    expect(app.offers.every((offer) => offer === null)).toBe(true);
    expect(app.notified).toEqual([]);
    const warnings = app.lines.filter((line) => line.startsWith('warn'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^warn update failed: .*sha512/);
    expect(app.pending.map((timer) => timer.ms)).toEqual([CHECK_INTERVAL_MS]);
  });

  it('logs a missing feed (404, e.g. the placeholder URL) as a warning, not an error dialog', async () => {
    const app = installedApp('1.1.0');
    await app.controller.checkNow();
    expect(app.lines.filter((line) => line.startsWith('warn'))).toEqual([
      expect.stringMatching(/^warn no update feed answered \(Cannot find channel "latest.*\.yml" update info/),
    ]);
    expect(app.pending.map((timer) => timer.ms)).toEqual([CHECK_INTERVAL_MS]);
  });

  it('refuses a feed file that is not YAML', async () => {
    feed.files.set('/updates/latest.yml', 'version: [1.2.0\n  files: {');
    const app = installedApp('1.1.0');
    await app.controller.checkNow();
    expect(app.lines.filter((line) => line.startsWith('warn'))).toEqual([
      expect.stringMatching(/^warn update failed: Cannot parse update info from latest.*\.yml/),
    ]);
  });

  it('treats a feed nobody answers as offline: info only, and a sooner retry', { timeout: 20_000 }, async () => {
    const gone = feed.url;
    await feed.close();
    feed = await startFeed();
    const app = installedApp('1.1.0', gone);
    await app.controller.checkNow();
    expect(app.lines.filter((line) => line.startsWith('warn'))).toEqual([]);
    expect(app.lines).toContain('info update check skipped, offline (ECONNREFUSED)');
    expect(app.pending.map((timer) => timer.ms)).toEqual([OFFLINE_RETRY_MS]);
  });
});

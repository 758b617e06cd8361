// The open account's services through the real account manager, with the emulator as the demo:
// nothing runs without an account, everything runs for an opened one (a first refresh included),
// Auto-download decides alone whether a finished job's outputs are downloaded, and a switch stops
// the previous account's services before its database closes.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../emulator/index.ts';
import type { JobInfo } from '../contract/ipc/jobs.ts';
import type { EventChannel } from '../contract/ipc.ts';
import type { AccountManager } from './account/account-manager.ts';
import { setUpAccounts } from './account/setup.ts';
import { createAccountServices, readyJobs, readyUploads, type AccountServices } from './account-services.ts';
import { createEventBus } from './events.ts';
import { withHostDefaults } from './host/host-services.ts';
import type { Settings } from './settings/settings.ts';
import { createMemoryStore } from './settings/store.ts';

let emulator: RunningEmulator;
let dataDir: string;
let accounts: AccountManager;
let settings: Settings;
let services: AccountServices;
const seen: EventChannel[] = [];
const failures: string[] = [];

async function until(check: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Submits one image job and follows it to its end (the emulator's clock jumps ahead). */
async function finishedImageJob(prompt: string): Promise<JobInfo> {
  const jobs = await readyJobs(services);
  const { localId } = await jobs.submit({ kind: 'image', body: { modelID: 'imagea', prompt, numImages: 1 } });
  emulator.control.advanceClock(60 * 60_000);
  await until(async () => {
    await jobs.checkNow();
    return jobs.get(localId).state === 'succeeded';
  });
  return jobs.get(localId);
}

beforeAll(async () => {
  emulator = await startEmulator({ seed: 21 });
  dataDir = mkdtempSync(join(tmpdir(), 'atelier-account-services-'));
  const events = createEventBus();
  events.subscribe((event) => void seen.push(event));
  ({ accounts, settings } = await setUpAccounts({
    dataDir,
    events,
    logger: { info: () => {}, warn: (message) => void failures.push(message) },
    store: createMemoryStore(),
    demo: { start: async () => ({ baseUrl: emulator.url, apiKey: 'demo-key' }), stop: async () => {} },
  }));
  settings.update({ libraryDir: join(dataDir, 'Library') });
  services = createAccountServices({
    dataDir,
    accounts,
    settings,
    events,
    hostServices: withHostDefaults(),
    logError: (message) => void failures.push(message),
  });
});
afterAll(async () => {
  await services.close();
  await accounts.close();
  await emulator.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('account services', () => {
  it('runs nothing without an account, and everything for an opened one, starting with a refresh', async () => {
    await expect(readyJobs(services)).rejects.toThrow(/No account yet/);
    expect(() => services.syncer()).toThrow(/No account yet/);
    await expect(services.library.library()).rejects.toThrow(/API key or try the demo/);

    await accounts.useDemo();
    expect(services.session()).toMatchObject({ mode: 'demo', area: 'Demo', baseUrl: emulator.url });
    expect(services.cache()).toBe(accounts.requireSession().cache);
    await until(() => seen.includes('sync:changed'));
    expect(services.cache().models.list().length).toBeGreaterThan(0);
    expect((await readyJobs(services)).list()).toEqual([]);
    expect((await readyUploads(services)).list()).toEqual([]);
    expect((await services.library.library()).root()).toBe(join(dataDir, 'Library'));
  });

  it('downloads a finished job’s outputs only while Auto-download is on', async () => {
    const library = await services.library.library();
    settings.update({ autoDownload: false });
    const kept = await finishedImageJob('left on the service');
    expect(kept.outputs).toHaveLength(1);
    expect(library.queue.list().items).toEqual([]);

    settings.update({ autoDownload: true });
    const downloaded = await finishedImageJob('downloaded on its own');
    const outputId = downloaded.outputs[0]!.id;
    expect(library.queue.list().items.map((item) => item.asset)).toEqual([{ kind: 'image', id: outputId }]);
  }, 40_000);

  it('stops the account’s services before its database closes on a switch', async () => {
    const syncer = services.syncer();
    // Something that outlives a call (a demo timer, a pending lookup), added after the services
    // started: closed before them, and the switch waits for it.
    const seenAtClose: string[] = [];
    const cache = services.cache();
    const readable = () => {
      try {
        cache.models.list();
        return true;
      } catch {
        return false;
      }
    };
    services.lifetime().add('pending lookup', async () => {
      await new Promise((resolve) => setTimeout(resolve, 50));
      seenAtClose.push(services.library.current() ? 'library still open' : 'library closed');
      seenAtClose.push(readable() ? 'database still open' : 'database closed');
    });
    await accounts.leaveDemo();
    expect(seenAtClose).toEqual(['library still open', 'database still open']);
    expect(readable()).toBe(false);
    expect(accounts.current()).toBeNull();
    await expect(readyJobs(services)).rejects.toThrow(/No account yet/);
    await expect(readyUploads(services)).rejects.toThrow(/No account yet/);
    expect(services.library.current()).toBeNull();
    await expect(syncer.refresh()).rejects.toThrow(/closing/);
    expect(failures).toEqual([]);
  });
});

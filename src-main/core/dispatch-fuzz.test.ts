// Property-based fuzz of EVERY invoke channel of the contract through the real dispatcher of a
// real core (an account open on the emulator over loopback): arguments derived from each channel's
// own valibot schema (rule edges on both sides), the same with one field poisoned, and plain
// garbage. Every call must end in a Result (never a rejection), errors must use the contract's
// codes, no prototype may be polluted, and the core must still answer afterwards.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../emulator/index.ts';
import { ERROR_CODES } from '../contract/errors.ts';
import { invokeChannels } from '../contract/ipc.ts';
import { settingsFieldSchemas } from '../contract/ipc/settings.ts';
import { createCore, type Core } from './core.ts';
import { createMemoryStore } from './settings/store.ts';
import { arbitraryFor, hostileValue, poisoned, type ArbitraryContext } from './test-support/schema-arbitrary.ts';

/** Modest on purpose: the whole file runs in a few seconds in `npm test` (sync:refresh aside, ~30 s: see its note). */
const RUNS_PER_CHANNEL = 12;
/** Channels that close or replace the account run last, so the others meet an open account. */
const ACCOUNT_CHANGING = new Set(['account:set-key', 'account:remove-key', 'account:use-demo', 'account:leave-demo']);
const channels = (Object.keys(invokeChannels) as (keyof typeof invokeChannels)[]).sort(
  (a, b) => Number(ACCOUNT_CHANGING.has(a)) - Number(ACCOUNT_CHANGING.has(b)),
);

let emulator: RunningEmulator;
let base: string;
let core: Core;
let ctx: ArbitraryContext;
const unexpected: string[] = [];

beforeAll(async () => {
  emulator = await startEmulator({ seed: 7 });
  base = mkdtempSync(join(tmpdir(), 'atelier-fuzz-'));
  const folder = join(base, 'paths', 'here');
  mkdirSync(folder, { recursive: true });
  ctx = {
    folder,
    addresses: [emulator.url, 'http://127.0.0.1:9/v1', 'http://localhost:9'],
    addressSchemas: new Set([settingsFieldSchemas.baseUrl]),
  };
  core = await createCore({
    dataDir: join(base, 'data'),
    host: { kind: 'browser', appVersion: '0.0.0-fuzz', chromiumVersion: null, electronVersion: null },
    store: createMemoryStore({ settings: { baseUrl: emulator.url, libraryDir: join(base, 'Library') } }),
    apiKeyOverride: 'demo-key',
    logError: (message) => void unexpected.push(message),
  });
});
afterAll(async () => {
  await core.close();
  await emulator.close();
  rmSync(base, { recursive: true, force: true });
});

const CODES = new Set<string>(ERROR_CODES);

async function expectResult(channel: unknown, args: unknown): Promise<void> {
  let result: unknown;
  try {
    result = await core.dispatch(channel, args);
  } catch (error) {
    throw new Error(`${String(channel)} rejected instead of answering a Result: ${String(error)}`);
  }
  const shaped = result as { ok?: unknown; value?: unknown; error?: { code?: unknown; message?: unknown } };
  expect(typeof shaped.ok).toBe('boolean');
  if (shaped.ok === false) {
    expect(CODES.has(String(shaped.error?.code))).toBe(true);
    expect(typeof shaped.error?.message).toBe('string');
  }
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
}

describe('every channel through the real dispatcher', () => {
  it.each(channels)(
    '%s answers a Result for schema-shaped, poisoned and garbage arguments',
    async (channel) => {
      const schema = invokeChannels[channel].args as unknown as Parameters<typeof arbitraryFor>[0];
      const args = fc.oneof(
        { weight: 3, arbitrary: arbitraryFor(schema, ctx) },
        { weight: 2, arbitrary: poisoned(schema, ctx) },
        { weight: 1, arbitrary: hostileValue },
      );
      await fc.assert(
        fc.asyncProperty(args, (value) => expectResult(channel, value)),
        { numRuns: RUNS_PER_CHANNEL, seed: 19_000 + channels.indexOf(channel) },
      );
      // A refresh waits its turn for the job list (never two reads within 5 s, api/job-list-gate.ts),
      // so the refreshes of a burst answer about 5 s apart.
    },
    120_000,
  );

  it('answers unknown and non-string channel names with a Result', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string(), hostileValue), hostileValue, (channel, args) =>
        expectResult(channel, args),
      ),
      { numRuns: 40, seed: 19 },
    );
  });

  it('still answers afterwards', async () => {
    // Nothing reached the dispatcher's "unexpected failure" path (a handler crash on some input).
    expect(unexpected.filter((m) => m.startsWith('handler '))).toEqual([]);
    expect(await core.dispatch('app:info', undefined)).toMatchObject({ ok: true });
    expect(Object.prototype).not.toHaveProperty('polluted');
  });
});

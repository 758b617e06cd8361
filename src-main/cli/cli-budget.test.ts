// The CLI and the credit caps: `generate` over a cap is refused with the reason (exit 2, nothing
// sent) and names --over-budget; with --over-budget it is sent.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAccountDb } from '../core/db/account-db.ts';
import { createHarness, type CliHarness } from './test-support/cli-harness.ts';

let h: CliHarness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});

const posts = () => h.emulator.control.stats().byRoute['POST /images/generation'] ?? 0;
const generate = (prompt: string, ...extra: string[]) =>
  h.run(['generate', 'image', '--model', 'imagea', '--prompt', prompt, ...extra]);

describe('atelier generate and the credit caps', () => {
  it('refuses a request over the daily cap before sending it; --over-budget sends it', async () => {
    expect((await generate('a first lamp')).code).toBe(0);
    // The account spent 50 credits today (as the service's job list would have reported), and its cap is 10.
    const [account] = readdirSync(join(h.dataDir, 'accounts'));
    const cache = openAccountDb(join(h.dataDir, 'accounts', account!, 'atelier.db'));
    const row = cache.jobs.insert({
      kind: 'image',
      modelId: 'imagea',
      request: { modelID: 'imagea', prompt: 'x' },
      now: Date.now(),
    });
    cache.jobs.update(row.local_id, { state: 'succeeded', credits: 50, finishedAt: Date.now() }, Date.now());
    cache.close();
    const file = join(h.dataDir, 'settings.json');
    const stored = (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {}) as {
      settings?: Record<string, unknown>;
    };
    stored.settings = { ...stored.settings, creditCaps: { [account!]: { daily: 10, monthly: null } } };
    writeFileSync(file, JSON.stringify(stored));

    const before = posts();
    const refused = await generate('a second lamp');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('Your daily cap of 10 credits is used up: 100 credits today');
    expect(refused.stderr).toContain('add --over-budget to send it anyway');
    expect(posts()).toBe(before);

    const json = await generate('a second lamp', '--json');
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toMatchObject({ error: { code: 'over_budget' } });
    expect(posts()).toBe(before);

    const sent = await generate('a second lamp', '--over-budget');
    expect(sent.code).toBe(0);
    expect(posts()).toBe(before + 1);
  }, 60_000);
});

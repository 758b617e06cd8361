// `atelier batch` as a subprocess against the emulator: --dry-run plans and sends nothing, --yes
// sends every valid job once and never a refused row, no --yes and no terminal sends nothing,
// --prompts applies the other flags to every line, --json prints one document.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, SENTINEL_KEY, type CliHarness } from './test-support/cli-harness.ts';

let h: CliHarness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  for (const text of h.outputs) expect(text).not.toContain(SENTINEL_KEY);
  await h.close();
});

const imagePosts = () => h.emulator.control.stats().byRoute['POST /images/generation'] ?? 0;

/** 20 rows; row 5 asks for 9 images, row 12 asks for none. */
function twentyRows(name: string): string {
  const rows = Array.from({ length: 20 }, (_, i) =>
    i === 4 ? '"row five, too many",imagea,9' : i === 11 ? 'row twelve,imagea,0' : `"row ${i + 1}",imagea,1`,
  );
  const file = join(h.root, name);
  writeFileSync(file, ['prompt,model,num-images', ...rows].join('\r\n'));
  return file;
}

interface PlanDoc {
  jobs: { row: number; kind: string; body: Record<string, unknown>; estimatedCredits: number | null }[];
  refused: { row: number; message: string }[];
  estimatedCredits: number;
  sent: number;
  batchId?: number;
  items?: { row: number; state: string; jobState: string | null }[];
}

describe('atelier batch', () => {
  it('--dry-run lists the 18 jobs and the 2 refused rows with their numbers, sends nothing, exits 2', async () => {
    const file = twentyRows('dry.csv');
    const before = imagePosts();
    const run = await h.run(['--json', 'batch', file, '--dry-run'], { timeoutMs: 45_000 });
    expect(run.code, run.stderr).toBe(2);
    const doc = JSON.parse(run.stdout) as PlanDoc;
    expect(doc.jobs).toHaveLength(18);
    expect(doc.sent).toBe(0);
    expect(doc.refused.map((r) => r.row)).toEqual([5, 12]);
    expect(doc.refused[0]!.message).toBe('row 5: numImages must be an integer from 1 to 4 on imagea; you gave 9');
    expect(doc.refused[1]!.message).toMatch(/^row 12: numImages/);
    expect(run.stderr).toContain('row 5: numImages must be an integer from 1 to 4 on imagea; you gave 9');
    expect(imagePosts()).toBe(before);

    const human = await h.run(['batch', file, '--dry-run'], { timeoutMs: 45_000 });
    expect(human.code).toBe(2);
    expect(human.stdout).toContain('row 5: numImages must be an integer from 1 to 4');
    expect(human.stdout).toContain('row 12: numImages');
    expect(human.stdout).toMatch(/18 jobs, 2 refused; estimated total \d+(\.\d+)? credits/);
    expect(imagePosts()).toBe(before);
  }, 90_000);

  it('without --yes and no terminal to confirm on, sends nothing and says so', async () => {
    const file = twentyRows('ask.csv');
    const before = imagePosts();
    const run = await h.run(['batch', file], { timeoutMs: 45_000 });
    expect(run.code).toBe(2);
    expect(run.stdout).toContain('Nothing was sent: add --yes');
    expect(imagePosts()).toBe(before);
  }, 60_000);

  it('--yes sends the 18 valid jobs once each, never a refused row, and exits 2 for the refused ones', async () => {
    const file = twentyRows('send.csv');
    const before = imagePosts();
    const run = await h.run(['--json', 'batch', file, '--yes'], { timeoutMs: 60_000 });
    expect(run.code, run.stderr).toBe(2);
    const doc = JSON.parse(run.stdout) as PlanDoc;
    expect(imagePosts() - before).toBe(18);
    expect(doc.sent).toBe(18);
    expect(doc.refused.map((r) => r.row)).toEqual([5, 12]);
    expect(doc.items!.filter((i) => i.state === 'sent')).toHaveLength(18);
    expect(doc.items!.filter((i) => i.state === 'refused').map((i) => i.row)).toEqual([5, 12]);
    expect(doc.items!.every((i) => i.state !== 'sent' || i.jobState !== 'submitting')).toBe(true);
  }, 90_000);

  it('--prompts applies the other flags to every line and expands {a|b} (exit 0)', async () => {
    const file = join(h.root, 'prompts.txt');
    writeFileSync(file, '# foxes\na fox\n\na {red|blue} owl\n');
    const before = imagePosts();
    const run = await h.run(
      ['--json', 'batch', '--prompts', file, '--model', 'imagea', '--aspect-ratio', '{1:1|16:9}', '--yes'],
      { timeoutMs: 60_000 },
    );
    expect(run.code, run.stderr).toBe(0);
    const doc = JSON.parse(run.stdout) as PlanDoc;
    expect(doc.jobs.map((j) => [j.row, j.body['prompt'], j.body['aspectRatio']])).toEqual([
      [2, 'a fox', '1:1'],
      [2, 'a fox', '16:9'],
      [4, 'a red owl', '1:1'],
      [4, 'a red owl', '16:9'],
      [4, 'a blue owl', '1:1'],
      [4, 'a blue owl', '16:9'],
    ]);
    expect(doc.sent).toBe(6);
    expect(imagePosts() - before).toBe(6);
  }, 90_000);

  it('refuses an unknown column by name, a missing file, and a missing source, sending nothing', async () => {
    const file = join(h.root, 'bad.csv');
    writeFileSync(file, 'prompt,colour\na fox,red\n');
    const before = imagePosts();
    const bad = await h.run(['batch', file, '--yes'], { timeoutMs: 45_000 });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('unknown column "colour"');
    const missing = await h.run(['batch', join(h.root, 'nope.csv'), '--yes']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no such file');
    const none = await h.run(['--json', 'batch']);
    expect(none.code).toBe(2);
    expect(JSON.parse(none.stdout)).toMatchObject({ error: { code: 'invalid_argument' } });
    expect(imagePosts()).toBe(before);
  }, 60_000);
});

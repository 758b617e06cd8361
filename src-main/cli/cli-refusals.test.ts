// The CLI as a subprocess: help, usage errors, local refusals (exit 2 and nothing sent), service
// errors (exit 3), network failures (exit 4), --json error documents, and the key never shown.
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_COMMANDS } from './commands/index.ts';
import { runCli } from './run.ts';
import {
  createHarness,
  filesContaining,
  requestCount,
  SENTINEL_KEY,
  type CliHarness,
} from './test-support/cli-harness.ts';

let h: CliHarness;

beforeAll(async () => {
  h = await createHarness();
});

afterAll(async () => {
  // Whatever ran in this file, the key shows up in no output and no file of the data folder.
  for (const text of h.outputs) expect(text).not.toContain(SENTINEL_KEY);
  expect(filesContaining(h.root, SENTINEL_KEY)).toEqual([]);
  await h.close();
});

async function helpInProcess(args: string[]): Promise<{ code: number; stdout: string }> {
  let stdout = '';
  const sink = { write: (text: string) => void (stdout += text) };
  const code = await runCli({
    args,
    env: {},
    commands: ALL_COMMANDS,
    signal: new AbortController().signal,
    version: '0',
    stdout: sink,
    stderr: sink,
  });
  return { code, stdout };
}

/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('help and usage', () => {
  it('prints help for every command and exits 0, sending nothing', async () => {
    const before = requestCount(h.emulator);
    const [top, one] = await Promise.all([h.run(['--help']), h.run(['generate', 'image', '--help'])]);
    expect(top.code).toBe(0);
    expect(top.stdout).toMatch(/Usage: atelier <command>/);
    for (const command of ALL_COMMANDS) expect(top.stdout).toContain(command.words.join(' '));
    expect(one.code).toBe(0);
    expect(one.stdout).toMatch(/^Usage: atelier generate image/);
    expect(one.stdout).toContain('--option KEY=VALUE');
    // Every other command's help through the same entry function, in this process (cheaper than
    // a Node process each; the subprocess runs above and below cover the real entry).
    for (const command of ALL_COMMANDS) {
      const text = await helpInProcess([...command.words, '--help']);
      expect(text.code, command.words.join(' ')).toBe(0);
      expect(text.stdout).toMatch(new RegExp(`^Usage: atelier ${command.words.join(' ')}`));
    }
    expect(requestCount(h.emulator)).toBe(before);
  });

  it('refuses unknown commands and options with exit 2, and never takes a key as an argument', async () => {
    const [unknown, badOption, keyOption, missing] = await Promise.all([
      h.run(['frobnicate']),
      h.run(['models', 'list', '--colour', 'red']),
      h.run(['models', 'list', `--api-key=${SENTINEL_KEY}`]),
      h.run(['models', 'get']),
    ]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Unknown command');
    expect(badOption.code).toBe(2);
    expect(badOption.stderr).toContain("'--colour'");
    expect(keyOption.code).toBe(2);
    expect(keyOption.stderr).toContain('ATELIER_API_KEY');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('Missing ID');
  });
});

describe('requests refused before anything is sent', () => {
  it('names every problem of an image request on its own line, exit 2, zero requests', async () => {
    const before = requestCount(h.emulator);
    const run = await h.run([
      'generate',
      'image',
      '--model',
      'imagea',
      '--prompt',
      'a cat',
      '--num-images',
      '9',
      '--option',
      'imageSize=8K',
      '--option',
      'safetyFilterLevel=LOOSE',
      '--reference-url',
      'not-a-url',
      '--wait',
    ]);
    expect(run.code).toBe(2);
    const lines = run.stderr.trim().split('\n');
    for (const field of [
      'numImages',
      'options.imagea.imageSize',
      'options.imagea.safetyFilterLevel',
      'referenceImageURLs[0]',
    ]) {
      expect(
        lines.filter((line) => line.startsWith(field)),
        `${field} in:\n${run.stderr}`,
      ).toHaveLength(1);
    }
    expect(run.stdout).toBe('');
    expect(requestCount(h.emulator)).toBe(before);
  });

  it('refuses video, upscale, option and upload mistakes the same way, with --json one document', async () => {
    const before = requestCount(h.emulator);
    const [video, group, option, upload, json] = await Promise.all([
      h.run([
        'generate',
        'video',
        '--model',
        'videoc-motion-pro',
        '--prompt',
        'dance',
        '--option',
        'duration=5',
        '--reference-image',
        'middle_frame=https://x.test/a.png',
      ]),
      h.run([
        'generate',
        'image',
        '--model',
        'imagec-2',
        '--prompt',
        'x',
        '--option',
        'outputFormat=png',
        '--option',
        'outputCompression=80',
      ]),
      h.run(['generate', 'image', '--model', 'imageb', '--prompt', 'x', '--option', '2K']),
      h.run(['upload', '--model', 'm1', '--type', 'modelInput', import.meta.filename]),
      h.run(['--json', 'generate', 'video', '--model', 'videoa-3.1', '--prompt', 'x', '--option', 'duration=5']),
    ]);
    expect(video.code).toBe(2);
    expect(video.stderr).toMatch(/^options\.videoc\.duration/m);
    expect(video.stderr).toMatch(/^referenceImages\[0\]\.role/m);
    expect(group.code).toBe(2);
    expect(group.stderr).toMatch(/^options\.imagec\.outputCompression/m);
    expect(option.code).toBe(2);
    expect(option.stderr).toMatch(/^--option/m);
    expect(upload.code).toBe(2);
    expect(upload.stderr).toContain('not a JPEG, PNG, WebP or HEIC');
    expect(json.code).toBe(2);
    const doc = JSON.parse(json.stdout) as { error: { code: string; fields: { field: string }[] } };
    expect(doc.error.code).toBe('validation');
    expect(doc.error.fields.map((f) => f.field)).toContain('options.videoa.duration');
    expect(requestCount(h.emulator)).toBe(before);
  });

  it('refuses a trained model that is not ready, naming modelID, exit 2, no generation sent', async () => {
    const created = await fetch(`${h.emulator.url}/models`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${SENTINEL_KEY}`, 'API-Version': '1', 'Content-Type': 'application/json' },
      body: JSON.stringify({ modelType: 'person' }),
    });
    const modelId = ((await created.json()) as { result: { id: string } }).result.id;
    const generations = () => h.emulator.control.stats().byRoute['POST /images/generation'] ?? 0;
    const before = generations();
    const run = await h.run(['generate', 'image', '--model', modelId, '--prompt', 'a portrait']);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(new RegExp(`^modelID ${modelId} is new: only ready models can generate`, 'm'));
    expect(generations()).toBe(before);
  });

  it('asks for a key when none is set, exit 2, nothing sent', async () => {
    const before = requestCount(h.emulator);
    const run = await h.run(['models', 'list'], { env: { ATELIER_API_KEY: undefined } });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('ATELIER_API_KEY');
    expect(requestCount(h.emulator)).toBe(before);
  });
});

describe('service and network failures', () => {
  it('prints err: message and exits 3 when the service refuses', async () => {
    const [missing, json] = await Promise.all([
      h.run(['images', 'get', 'img_does_not_exist']),
      h.run(['--json', 'videos', 'get', 'vid_nope']),
    ]);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toMatch(/^err: .*404/m);
    expect(json.code).toBe(3);
    expect((JSON.parse(json.stdout) as { error: { code: string; httpStatus: number } }).error).toMatchObject({
      code: 'not_found',
      httpStatus: 404,
    });
  });

  it('exits 4 when the service cannot be reached', async () => {
    const port = await closedPort();
    const run = await h.run(['--base-url', `http://127.0.0.1:${port}`, 'presets']);
    expect(run.code, run.stderr).toBe(4);
    expect(run.stderr).toMatch(/^network error: /m);
  });

  it('refuses a plain-http address that is not this machine, exit 2', async () => {
    const run = await h.run(['presets'], { env: { ATELIER_BASE_URL: 'http://media.example.com/v1' } });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^baseUrl: /m);
  });
});

// The Create image form's state against the contract's own rules and a fake core: an untouched form
// does not shout, a submit shows every problem and sends nothing, a model's reference cap and option
// group come from the rule table, and a valid form is held for the send delay (cancellable), then
// sent once as the normalised request the core accepts.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { defaultsFor, normalize, validate } from '@contract/rules/index.ts';
import { publicImageRules } from '@contract/rules/image-models.ts';
import { fakeCore, installFakeCore, ok } from '../test-support/fake-core.ts';
import { jobRecord } from '../test-support/records.ts';

const core = fakeCore({ 'jobs:submit': (request) => ok(jobRecord({ localId: 41, request: request.body })) });
installFakeCore(core);
const { createImage } = await import('./create-image.svelte.ts');
const { queue, SEND_DELAY_MS } = await import('./queue.svelte.ts');
const { jobList } = await import('./job-list.svelte.ts');

const urls = (n: number) => Array.from({ length: n }, (_, i) => `https://refs.example/${i + 1}.png`);

beforeEach(() => {
  createImage.selectModel('imagea');
  createImage.prompt = '';
  createImage.referenceURLs = [];
  createImage.originJobId = null;
  createImage.touched.reset();
  core.calls.length = 0;
});

afterEach(() => {
  vi.useRealTimers();
});

describe('the Create image form', () => {
  it('does not shout while untouched; a submit shows the problems, names the first field and sends nothing', () => {
    expect(createImage.canGenerate).toBe(false);
    expect(createImage.problems.map((p) => p.field)).toContain('prompt');
    expect(createImage.problemFor('prompt')).toBeNull();
    expect(createImage.submit()).toBe('prompt');
    expect(createImage.problemFor('prompt')).not.toBeNull();
    expect(queue.pending).toEqual([]);
    expect(core.argsOf('jobs:submit')).toEqual([]);
  });

  it("refuses one reference more than the model's cap, from the rule table", () => {
    const cap = publicImageRules('imagea')!.maxReferenceURLs;
    createImage.setPrompt('a lighthouse at dusk');
    for (const url of urls(cap)) createImage.addReference(url);
    expect(createImage.canGenerate).toBe(true);
    createImage.addReference(urls(cap + 1).at(-1)!);
    expect(createImage.canGenerate).toBe(false);
    expect(createImage.problemFor('referenceImageURLs')).toMatch(new RegExp(`${cap}`));
    expect(createImage.blockedBy).not.toBeNull();
    // The form says what the contract's own check says of the same request.
    expect(validate({ kind: 'image', body: createImage.body }).map((p) => p.field)).toEqual(
      createImage.problems.map((p) => p.field),
    );
  });

  it("takes a new family's option group with its defaults, and resolves imagec-2's size", () => {
    createImage.selectModel('imagec-2');
    const group = publicImageRules('imagec-2')!.optionGroup;
    const defaults = (defaultsFor('imagec-2')['options'] as Record<string, Record<string, unknown>>)[group];
    expect(Object.keys(defaults ?? {})).not.toHaveLength(0);
    expect(createImage.options).toMatchObject(defaults!);
    expect(Object.keys((createImage.body['options'] as Record<string, unknown>) ?? {})).toEqual([group]);
    createImage.setOption('imageSize', '1K');
    createImage.aspectRatio = '16:9';
    expect(createImage.resolvedSize).not.toBeNull();
  });

  it('holds a valid request for the send delay, then sends it once, normalised, and lists its job', async () => {
    vi.useFakeTimers();
    createImage.setPrompt('a teapot on linen');
    expect(createImage.submit()).toBeNull();
    expect(queue.pending).toHaveLength(1);
    expect(core.argsOf('jobs:submit')).toEqual([]);
    await vi.advanceTimersByTimeAsync(SEND_DELAY_MS - 1);
    expect(core.argsOf('jobs:submit')).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(core.argsOf('jobs:submit')).toEqual([normalize({ kind: 'image', body: createImage.body })]);
    expect(queue.pending).toEqual([]);
    expect(jobList.find(41)).toBeDefined();
  });

  it('sends nothing when the held request is cancelled', async () => {
    vi.useFakeTimers();
    createImage.setPrompt('a paper boat');
    createImage.submit();
    const [held] = queue.pending;
    expect(queue.cancel(held!.id)).toBe(true);
    await vi.advanceTimersByTimeAsync(SEND_DELAY_MS * 2);
    expect(core.argsOf('jobs:submit')).toEqual([]);
  });

  it('sends a remixed request with the job it came from beside it (the family tree), never inside it', async () => {
    vi.useFakeTimers();
    createImage.loadRequest({ modelID: 'imagea', prompt: 'a fox at dawn', aspectRatio: '3:2' }, 'job_made_it');
    createImage.submit();
    await vi.advanceTimersByTimeAsync(SEND_DELAY_MS);
    const [sent] = core.argsOf('jobs:submit');
    expect(sent).toMatchObject({ kind: 'image', originJobId: 'job_made_it', body: { prompt: 'a fox at dawn' } });
    expect(sent?.body).not.toHaveProperty('originJobId');
    // A request loaded from elsewhere (a dropped file) is no remix.
    createImage.loadRequest({ modelID: 'imagea', prompt: 'a fox at dusk' });
    createImage.submit();
    await vi.advanceTimersByTimeAsync(SEND_DELAY_MS);
    expect(core.argsOf('jobs:submit')[1]).not.toHaveProperty('originJobId');
  });
});

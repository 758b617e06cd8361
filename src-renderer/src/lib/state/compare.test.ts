// Compare's state against a fake core: two to four items, two as a before/after slider, more side by
// side; a count outside that is refused with a toast and opens nothing; an upscale opens beside its
// source (before on the left), read from the core's library.
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fakeCore, installFakeCore, ok } from '../test-support/fake-core.ts';
import { assetRecord } from '../test-support/records.ts';

const core = fakeCore();
installFakeCore(core);
const { compare } = await import('./compare.svelte.ts');
const { toasts } = await import('./toasts.svelte.ts');

const items = (n: number) => Array.from({ length: n }, (_, i) => assetRecord({ id: `img_${i + 1}` }));

beforeAll(() => {
  core.handle('assets:get', ({ id }) =>
    id === 'img_src'
      ? ok(assetRecord({ id: 'img_src', upscaledImageId: 'img_up' }))
      : { ok: false, error: { code: 'not_found', message: 'no such image' } },
  );
});

beforeEach(() => {
  compare.close();
  toasts.items = [];
});

describe('compare', () => {
  it('opens two as a slider and three or four side by side', () => {
    compare.open(items(2));
    expect(compare.isOpen).toBe(true);
    expect(compare.mode).toBe('slider');
    compare.open(items(4), 'slider');
    expect(compare.items).toHaveLength(4);
    expect(compare.mode).toBe('side');
  });

  it.each([0, 1, 5])('refuses %i items with a toast and opens nothing', (n) => {
    compare.open(items(n));
    expect(compare.isOpen).toBe(false);
    expect(compare.items).toEqual([]);
    expect(toasts.items.map((t) => t.message)).toEqual([compare.refusal(n)]);
    expect(compare.refusal(n)).toMatch(n < 2 ? /at least 2/ : /at most 4/);
  });

  it('opens an upscale beside its source, the source first, as a slider', async () => {
    await compare.openUpscale(assetRecord({ id: 'img_up', sourceAssetId: 'img_src' }));
    expect(core.argsOf('assets:get').at(-1)).toEqual({ kind: 'image', id: 'img_src' });
    expect(compare.items.map((a) => a.id)).toEqual(['img_src', 'img_up']);
    expect(compare.mode).toBe('slider');
  });

  it('says so when the other image is not in the library, and opens nothing', async () => {
    await compare.openUpscale(assetRecord({ id: 'img_x', upscaledImageId: 'img_missing' }));
    expect(compare.isOpen).toBe(false);
    expect(toasts.items.map((t) => t.message)).toEqual(['The other image is not in the library (yet).']);
  });
});

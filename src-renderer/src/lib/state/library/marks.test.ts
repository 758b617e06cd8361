// The marks module against a fake core that keeps marks as the core does: a change shows at once,
// the core's answer confirms it, undo sends each asset's previous marks back (one call per distinct
// previous value), a refusal puts back what was shown and says why; and the marking keys.
import { beforeEach, describe, expect, it } from 'vitest';
import type { AssetRefInfo } from '@contract/ipc/library.ts';
import type { AssetMarkInfo, AssetMarksInfo } from '@contract/ipc/marks.ts';
import { fakeCore, installFakeCore, ok } from '../../test-support/fake-core.ts';

const core = fakeCore();
installFakeCore(core);
const { AssetMarks } = await import('./marks.svelte.ts');
const { toasts } = await import('../toasts.svelte.ts');
const { markChangeOfKey, describeMarkChange } = await import('../../library/mark-keys.ts');

/** The core's side: marks by asset; unknown assets refuse the whole call, as assets:mark does. */
let stored: Map<string, AssetMarksInfo>;
const keyOf = (ref: AssetRefInfo) => `${ref.kind}:${ref.id}`;
core.handle('assets:mark', ({ assets, rating, flag }) => {
  if (assets.some((ref) => !stored.has(keyOf(ref)))) {
    return {
      ok: false,
      error: { code: 'not_found', message: 'That item is no longer in the library; nothing was marked.' },
    };
  }
  const previous: AssetMarkInfo[] = assets.map((ref) => ({ ...ref, ...stored.get(keyOf(ref))! }));
  const marks = previous.map((mark) => ({
    ...mark,
    rating: rating ?? mark.rating,
    flag: flag === undefined ? mark.flag : flag,
  }));
  for (const mark of marks) stored.set(keyOf(mark), { rating: mark.rating, flag: mark.flag });
  return ok({ marks, previous, changed: marks.length });
});

const img = (id: string, rating = 0, flag: 'pick' | 'reject' | null = null) => ({
  kind: 'image' as const,
  id,
  rating,
  flag,
});

beforeEach(() => {
  stored = new Map([
    ['image:a', { rating: 0, flag: null }],
    ['image:b', { rating: 3, flag: 'pick' }],
    ['image:c', { rating: 5, flag: null }],
  ]);
  core.calls.length = 0;
  toasts.items = [];
});

describe('marks', () => {
  it('shows a change before the core answers, then keeps what the core confirmed, and says it', async () => {
    const marks = new AssetMarks();
    const a = img('a');
    const pending = marks.mark([a], { rating: 4 });
    expect(marks.marksOf(a)).toEqual({ rating: 4, flag: null });
    const outcome = await pending;
    expect(outcome?.previous).toEqual([{ kind: 'image', id: 'a', rating: 0, flag: null }]);
    expect(marks.marksOf(a)).toEqual({ rating: 4, flag: null });
    expect(toasts.items.map((t) => [t.level, t.message])).toEqual([['info', 'Rated 4 stars']]);
  });

  it('undoes a change on many assets by sending each its own previous marks', async () => {
    const marks = new AssetMarks();
    const assets = [img('a'), img('b', 3, 'pick'), img('c', 5)];
    const outcome = await marks.mark(assets, { flag: 'reject', rating: 1 });
    expect(assets.map((asset) => marks.marksOf(asset))).toEqual(
      Array.from({ length: 3 }, () => ({ rating: 1, flag: 'reject' })),
    );
    expect(toasts.items.at(-1)?.message).toBe('Rated 1 star, rejected: 3 items');
    expect(await outcome!.undo()).toBe(true);
    expect(Object.fromEntries(stored)).toEqual({
      'image:a': { rating: 0, flag: null },
      'image:b': { rating: 3, flag: 'pick' },
      'image:c': { rating: 5, flag: null },
    });
    expect(assets.map((asset) => marks.marksOf(asset))).toEqual([...stored.values()]);
    // Three distinct previous marks: three calls after the first.
    expect(core.argsOf('assets:mark')).toHaveLength(4);
  });

  it('puts back what was shown when the core refuses, and shows the reason', async () => {
    const marks = new AssetMarks();
    const gone = img('gone', 2);
    expect(await marks.mark([gone], { flag: 'pick' })).toBeNull();
    expect(marks.marksOf(gone)).toEqual({ rating: 2, flag: null });
    expect(toasts.items.map((t) => [t.level, t.message])).toEqual([
      ['error', 'That item is no longer in the library; nothing was marked.'],
    ]);
  });

  it('sends nothing for an empty change or no assets', async () => {
    const marks = new AssetMarks();
    expect(await marks.mark([], { rating: 3 })).toBeNull();
    expect(await marks.mark([img('a')], {})).toBeNull();
    expect(core.calls).toHaveLength(0);
  });
});

describe('marking keys', () => {
  it('1–5 rate, 0 clears, P picks, X rejects, U unflags; modifiers and other keys do nothing', () => {
    const key = (k: string, mods: Partial<KeyboardEvent> = {}) =>
      markChangeOfKey({ key: k, ctrlKey: false, metaKey: false, altKey: false, ...mods });
    expect(['1', '2', '3', '4', '5', '0'].map((k) => key(k))).toEqual([1, 2, 3, 4, 5, 0].map((rating) => ({ rating })));
    expect([key('p'), key('P'), key('x'), key('X'), key('u')]).toEqual([
      { flag: 'pick' },
      { flag: 'pick' },
      { flag: 'reject' },
      { flag: 'reject' },
      { flag: null },
    ]);
    expect([key('6'), key('f'), key('1', { ctrlKey: true }), key('p', { metaKey: true })]).toEqual([
      null,
      null,
      null,
      null,
    ]);
    expect(describeMarkChange({ rating: 0 })).toBe('Rating cleared');
    expect(describeMarkChange({ flag: null })).toBe('Flag cleared');
    expect(describeMarkChange({ flag: 'reject' })).toBe('Rejected');
  });
});

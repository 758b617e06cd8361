import { describe, expect, it } from 'vitest';
import type { AssetInfo } from '@contract/ipc/assets.ts';
import type { AssetRefInfo } from '@contract/ipc/library.ts';
import { CullSession, type CullChange, type CullMarks } from './cull-session.svelte.ts';

const asset = (n: number): AssetInfo => ({ kind: 'image', id: `img_${n}` }) as AssetInfo;

/** The marks as the core would hold them: what each change sent leaves, in arrival order. */
function store(initial: Record<string, CullMarks> = {}, refuse?: (ref: AssetRefInfo, change: CullChange) => boolean) {
  const held = new Map<string, CullMarks>(Object.entries(initial));
  const sent: { id: string; change: CullChange }[] = [];
  let release: (() => void) | null = null;
  let hold = false;
  return {
    held,
    sent,
    /** Holds every answer until `go()`. */
    pause() {
      hold = true;
    },
    go() {
      hold = false;
      release?.();
    },
    marker: async (ref: AssetRefInfo, change: CullChange) => {
      if (hold) await new Promise<void>((resolve) => (release = resolve));
      if (refuse?.(ref, change)) return { ok: false as const, message: 'The library is busy.' };
      sent.push({ id: ref.id, change });
      const was = held.get(ref.id) ?? { rating: 0, flag: null };
      held.set(ref.id, {
        rating: change.rating ?? was.rating,
        flag: change.flag === undefined ? was.flag : change.flag,
      });
      return { ok: true as const };
    },
  };
}

const session = (count: number, core: ReturnType<typeof store>, autoAdvance = false, errors: string[] = []) =>
  new CullSession(
    Array.from({ length: count }, (_, i) => asset(i + 1)),
    {
      marker: core.marker,
      marksOf: (a) => core.held.get(a.id) ?? { rating: 0, flag: null },
      autoAdvance,
      onError: (message) => errors.push(message),
    },
  );

describe('a cull', () => {
  it('rates and flags the current item and counts picks and rejects', async () => {
    const core = store({ img_3: { rating: 2, flag: 'reject' } });
    const cull = session(5, core);
    expect([cull.picks, cull.rejects]).toEqual([0, 1]);
    void cull.mark({ rating: 4 });
    void cull.mark({ flag: 'pick' });
    cull.step(1);
    void cull.mark({ flag: 'reject' });
    // Shown at once, before the answers.
    expect(cull.marksFor(asset(1))).toEqual({ rating: 4, flag: 'pick' });
    expect([cull.index, cull.picks, cull.rejects]).toEqual([1, 1, 2]);
    await cull.settled();
    expect(core.held.get('img_1')).toEqual({ rating: 4, flag: 'pick' });
    expect(core.held.get('img_2')).toEqual({ rating: 0, flag: 'reject' });
    expect(cull.rejected.map((a) => a.id)).toEqual(['img_2', 'img_3']);
  });

  it('moves on after a flag only when auto-advance is on, never past the last item', async () => {
    const core = store();
    const manual = session(3, core);
    void manual.mark({ flag: 'pick' });
    expect(manual.index).toBe(0);

    const auto = session(3, core, true);
    void auto.mark({ rating: 3 });
    expect(auto.index).toBe(0);
    void auto.mark({ flag: 'reject' });
    expect(auto.index).toBe(1);
    void auto.mark({ flag: 'pick' });
    void auto.mark({ flag: 'reject' });
    expect(auto.index).toBe(2);
    void auto.mark({ flag: 'pick' });
    expect(auto.index).toBe(2);
    await auto.settled();
    expect([...core.held.entries()]).toEqual([
      ['img_1', { rating: 3, flag: 'reject' }],
      ['img_2', { rating: 0, flag: 'pick' }],
      ['img_3', { rating: 0, flag: 'pick' }],
    ]);
  });

  it('sends the presses in the order made, whatever the answers take', async () => {
    const core = store();
    const cull = session(2, core, true);
    core.pause();
    void cull.mark({ flag: 'reject' });
    void cull.mark({ flag: 'pick' });
    cull.step(-1);
    void cull.mark({ flag: 'pick' });
    core.go();
    await cull.settled();
    expect(core.sent.map((s) => `${s.id} ${s.change.flag}`)).toEqual(['img_1 reject', 'img_2 pick', 'img_1 pick']);
    expect(core.held.get('img_1')?.flag).toBe('pick');
  });

  it('undoes one step at a time: the previous marks go back to the core and the view goes back to the item', async () => {
    const core = store({ img_2: { rating: 5, flag: null } });
    const cull = session(4, core, true);
    void cull.mark({ flag: 'pick' }); // img_1, → 2
    void cull.mark({ rating: 1 }); // img_2 5 → 1
    void cull.mark({ flag: 'reject' }); // img_2, → 3
    await cull.settled();
    expect(cull.index).toBe(2);
    expect(core.held.get('img_2')).toEqual({ rating: 1, flag: 'reject' });

    expect(await cull.undo()).toBe(true);
    expect(cull.index).toBe(1);
    expect(core.held.get('img_2')).toEqual({ rating: 1, flag: null });
    expect(await cull.undo()).toBe(true);
    expect(core.held.get('img_2')).toEqual({ rating: 5, flag: null });
    expect(cull.marksFor(asset(2))).toEqual({ rating: 5, flag: null });
    expect(await cull.undo()).toBe(true);
    expect(cull.index).toBe(0);
    expect(core.held.get('img_1')).toEqual({ rating: 0, flag: null });
    expect([cull.picks, cull.rejects, cull.canUndo]).toEqual([0, 0, false]);
    expect(await cull.undo()).toBe(false);
  });

  it('takes back on screen a change the core refused, with its reason, and leaves no step to undo', async () => {
    const core = store({}, (ref, change) => ref.id === 'img_2' && change.flag === 'reject');
    const errors: string[] = [];
    const cull = session(3, core, true, errors);
    void cull.mark({ flag: 'pick' });
    void cull.mark({ flag: 'reject' });
    expect(cull.rejects).toBe(1);
    await cull.settled();
    expect(errors).toEqual(['The library is busy.']);
    expect(cull.marksFor(asset(2))).toEqual({ rating: 0, flag: null });
    expect(cull.rejects).toBe(0);
    await cull.undo();
    expect(core.held.get('img_1')).toEqual({ rating: 0, flag: null });
    expect(cull.canUndo).toBe(false);
  });

  it('marks another item from the review without moving, as one more step to undo', async () => {
    const core = store({ img_3: { rating: 1, flag: 'reject' } });
    const cull = session(4, core, true);
    cull.go(1);
    void cull.mark({ flag: null }, 2);
    expect(cull.index).toBe(1);
    await cull.settled();
    expect(core.held.get('img_3')).toEqual({ rating: 1, flag: null });
    await cull.undo();
    expect(cull.index).toBe(2);
    expect(core.held.get('img_3')).toEqual({ rating: 1, flag: 'reject' });
  });

  it('shows the run of items that holds the current one in the survey, full at the end', () => {
    const cull = session(10, store());
    cull.surveySize = 4;
    cull.go(5);
    expect(cull.surveyed.map((s) => s.index)).toEqual([4, 5, 6, 7]);
    // At the end, the last four: never a run of two with two empty places.
    cull.go(9);
    expect(cull.surveyed.map((s) => s.index)).toEqual([6, 7, 8, 9]);
    cull.go(8);
    expect(cull.surveyed.map((s) => s.index)).toEqual([6, 7, 8, 9]);
    cull.surveySize = 3;
    expect(cull.surveyed.map((s) => s.index)).toEqual([6, 7, 8]);
    cull.go(9);
    expect(cull.surveyed.map((s) => s.index)).toEqual([7, 8, 9]);
    expect(session(2, store()).surveyed.map((s) => s.index)).toEqual([0, 1]);
    cull.go(-4);
    expect(cull.index).toBe(0);
    cull.go(40);
    expect(cull.index).toBe(9);
  });
});

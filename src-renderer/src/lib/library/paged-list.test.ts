import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PagedList } from './paged-list.ts';

interface Item {
  id: number;
  a: number;
}

const item = (id: number): Item => ({ id, a: 1 + (id % 5) / 4 });
const page = (from: number, n: number): Item[] => Array.from({ length: n }, (_, i) => item(from + i));
const ids = (list: PagedList<Item>): (number | undefined)[] =>
  Array.from({ length: list.length }, (_, i) => list.at(i)?.id);

describe('PagedList', () => {
  it('holds appended pages, answers by index and keeps every shape', () => {
    const list = new PagedList<Item>((x) => x.a);
    list.append(null, page(0, 3));
    list.append('c1', page(3, 3));
    expect(list.length).toBe(6);
    expect(ids(list)).toEqual([0, 1, 2, 3, 4, 5]);
    expect([...list.aspects]).toEqual(page(0, 6).map((x) => x.a));
    expect(list.pageOf(0)).toBe(0);
    expect(list.pageOf(2)).toBe(0);
    expect(list.pageOf(3)).toBe(1);
    expect(list.page(1)).toEqual({ start: 3, cursor: 'c1', count: 3, held: true });
  });

  it('lets go of the pages outside a window, keeps their shapes, and takes them back from their cursor', () => {
    const list = new PagedList<Item>((x) => x.a);
    for (let p = 0; p < 10; p += 1) list.append(p === 0 ? null : `c${p}`, page(p * 100, 100));
    list.keepOnly(450, 560);
    expect(list.heldCount).toBe(200);
    expect(list.at(399)).toBeUndefined();
    expect(list.at(400)?.id).toBe(400);
    expect(list.at(599)?.id).toBe(599);
    expect(list.at(600)).toBeUndefined();
    expect(list.aspects.length).toBe(1000);
    expect(list.aspects[999]).toBe(item(999).a);
    expect(list.missing(0, 999)).toEqual([0, 1, 2, 3, 6, 7, 8, 9]);
    expect(list.missing(380, 620)).toEqual([3, 6]);
    const seven = list.page(7)!;
    expect(seven).toEqual({ start: 700, cursor: 'c7', count: 100, held: false });
    list.refill(7, page(700, 100));
    expect(list.at(750)?.id).toBe(750);
    expect(list.missing(0, 999)).toEqual([0, 1, 2, 3, 6, 8, 9]);
  });

  it('knows a page only by its map until it is fetched, then holds it in place', () => {
    const list = new PagedList<Item>((x) => x.a);
    list.append(null, page(0, 3));
    list.appendUnread(
      'c1',
      page(3, 3).map((x) => x.a),
    );
    list.appendUnread('c2', [9, 9]);
    expect(list.length).toBe(8);
    expect(list.heldCount).toBe(3);
    expect([...list.aspects]).toEqual([...page(0, 6).map((x) => x.a), 9, 9]);
    expect(list.at(4)).toBeUndefined();
    expect(list.missing(0, 7)).toEqual([1, 2]);
    expect(list.page(2)).toEqual({ start: 6, cursor: 'c2', count: 2, held: false });
    list.refill(2, page(6, 2));
    expect(ids(list)).toEqual([0, 1, 2, undefined, undefined, undefined, 6, 7]);
    expect(list.aspects[7]).toBe(item(7).a);
  });

  it('shifts later pages and shapes when a page comes back shorter or longer', () => {
    const list = new PagedList<Item>((x) => x.a);
    list.append(null, page(0, 4));
    list.append('c1', page(4, 4));
    list.append('c2', page(8, 4));
    list.keepOnly(8, 11);
    list.refill(0, page(0, 3));
    expect(list.length).toBe(11);
    expect(list.page(1)?.start).toBe(3);
    expect(list.page(2)?.start).toBe(7);
    expect(list.at(7)?.id).toBe(8);
    expect(list.aspects[7]).toBe(item(8).a);
  });

  it('refuses to place an item in a page let go or full', () => {
    const list = new PagedList<Item>((x) => x.a);
    list.append(null, page(0, 2));
    list.append('c1', page(2, 2));
    list.keepOnly(2, 3);
    expect(list.insert(1, item(99))).toBe(false);
    expect(list.insert(3, item(99), 2)).toBe(false);
    expect(list.insert(3, item(99), 3)).toBe(true);
    expect(ids(list)).toEqual([undefined, undefined, 2, 99, 3]);
  });

  it('stays the same list as a plain array through any appends, patches, lets-go and refills', () => {
    // The model: the whole list as an array, and which pages are held. Shapes must match it always.
    type Op =
      | { op: 'append'; n: number }
      | { op: 'map'; n: number }
      | { op: 'keep'; first: number; span: number }
      | { op: 'refill'; p: number }
      | { op: 'remove'; at: number }
      | { op: 'insert'; at: number }
      | { op: 'set'; at: number };
    const op: fc.Arbitrary<Op> = fc.oneof(
      fc.record({ op: fc.constant('append' as const), n: fc.integer({ min: 1, max: 7 }) }),
      fc.record({ op: fc.constant('map' as const), n: fc.integer({ min: 1, max: 7 }) }),
      fc.record({ op: fc.constant('keep' as const), first: fc.nat(60), span: fc.nat(20) }),
      fc.record({ op: fc.constant('refill' as const), p: fc.nat(12) }),
      fc.record({ op: fc.constant('remove' as const), at: fc.nat(60) }),
      fc.record({ op: fc.constant('insert' as const), at: fc.nat(60) }),
      fc.record({ op: fc.constant('set' as const), at: fc.nat(60) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), (ops) => {
        const list = new PagedList<Item>((x) => x.a);
        const whole: Item[] = [];
        let next = 1000;
        for (const o of ops) {
          if (o.op === 'append') {
            const items = page(next, o.n);
            next += o.n;
            list.append(`c${list.pageCount}`, items);
            whole.push(...items);
          } else if (o.op === 'map') {
            const items = page(next, o.n);
            next += o.n;
            list.appendUnread(
              `c${list.pageCount}`,
              items.map((x) => x.a),
            );
            whole.push(...items);
          } else if (o.op === 'keep') {
            list.keepOnly(o.first, o.first + o.span);
          } else if (o.op === 'refill') {
            const info = list.page(o.p);
            if (!info || info.held) continue;
            // The service answers the page as it is now: the same items (the model is the truth).
            list.refill(o.p, whole.slice(info.start, info.start + info.count));
          } else if (o.at < list.length && list.at(o.at)) {
            if (o.op === 'remove') {
              list.remove(o.at);
              whole.splice(o.at, 1);
            } else if (o.op === 'set') {
              const fresh = item(next++);
              list.set(o.at, fresh);
              whole[o.at] = fresh;
            } else {
              const fresh = item(next++);
              if (list.insert(o.at, fresh)) whole.splice(o.at, 0, fresh);
            }
          }
        }
        expect(list.length).toBe(whole.length);
        expect([...list.aspects]).toEqual(whole.map((x) => x.a));
        for (let i = 0; i < whole.length; i += 1) {
          const held = list.at(i);
          if (held) expect(held).toBe(whole[i]);
        }
        const firstHeld = whole.findIndex((_, i) => list.at(i) !== undefined);
        expect(list.findIndex((x) => x.id % 1 === 0)).toBe(firstHeld);
      }),
      { seed: 17, numRuns: 400 },
    );
  });
});

// The Library's state modules (filters, list, live updates, collections) against a fake bridge that
// checks every call with the contract's own schemas (a field the contract does not know is refused,
// as the core refuses it) and answers from a small library. The filters are what the core is asked
// for; a smart collection saved from any combination of filters shows as current once opened.
import fc from 'fast-check';
import * as v from 'valibot';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { invokeChannels, type InvokeChannel } from '@contract/ipc.ts';
import { sameFilter, type AssetFilter, type AssetInfo } from '@contract/ipc/assets.ts';
import type { CollectionInfo } from '@contract/ipc/collections.ts';
import type { Result } from '@contract/errors.ts';
import { anySavedSearch, assetFilterFields } from '@contract/test-support/asset-filters.ts';

/** A small library: every combination of kind, origin, offline and favourite. */
const ASSETS: AssetInfo[] = Array.from({ length: 16 }, (_, i) => ({
  kind: i % 2 ? 'video' : 'image',
  id: `a${i}`,
  origin: i & 2 ? 'uploaded' : 'generated',
  favorite: Boolean(i & 4),
  liked: false,
  modelId: 'imagea-1',
  createdAt: new Date(Date.UTC(2025, 2, 1 + i)).toISOString(),
  file: { state: i & 8 ? 'downloaded' : 'remote' },
})) as unknown as AssetInfo[];

/** The fake core's reading of a filter, for its answers only (the real SQL is the core's, tested there). */
const holds = (filter: AssetFilter, a: AssetInfo): boolean =>
  (filter.kind === undefined || a.kind === filter.kind) &&
  (filter.origin === undefined || a.origin === filter.origin) &&
  (filter.favorite === undefined || a.favorite === filter.favorite) &&
  (filter.offline === undefined || (a.file.state === 'downloaded') === filter.offline);

function fakeCore() {
  const calls: { channel: string; args: unknown }[] = [];
  let collections: CollectionInfo[] = [];
  const answer = (channel: InvokeChannel, raw: unknown): Result<unknown> => {
    const parsed = v.safeParse(invokeChannels[channel].args, raw);
    if (!parsed.success) return { ok: false, error: { code: 'invalid_argument', message: parsed.issues[0].message } };
    const args = parsed.output as {
      filter?: AssetFilter;
      assets?: { kind: string; id: string }[];
      kind?: string;
      name?: string;
      search?: AssetFilter;
    };
    calls.push({ channel, args });
    switch (channel) {
      case 'assets:list': {
        const filter: AssetFilter = args.filter ?? {};
        return { ok: true, value: { items: ASSETS.filter((a) => holds(filter, a)), nextCursor: null } };
      }
      case 'assets:matching': {
        const refs = args.assets ?? [];
        const shown = ASSETS.filter((a) => holds(args.filter ?? {}, a));
        return { ok: true, value: refs.filter((r) => shown.some((a) => a.kind === r.kind && a.id === r.id)) };
      }
      case 'assets:search':
        return { ok: true, value: ASSETS.filter((a) => args.kind === undefined || a.kind === args.kind) };
      case 'assets:counts':
        return { ok: true, value: { total: 8, images: 4, videos: 4, offline: 4, liked: 0, favorites: 4, byModel: [] } };
      case 'models:list':
        return { ok: true, value: [] };
      case 'collections:list':
        return { ok: true, value: collections };
      case 'collections:create': {
        const made = {
          id: collections.length + 1,
          name: args.name ?? '',
          smart: args.search !== undefined,
          search: args.search ?? null,
          count: 0,
          createdAt: '',
          updatedAt: '',
        } as CollectionInfo;
        collections = [...collections, made];
        return { ok: true, value: made };
      }
      default:
        return { ok: false, error: { code: 'unsupported', message: `not played by the fake: ${channel}` } };
    }
  };
  return {
    calls,
    reset: () => {
      calls.length = 0;
      collections = [];
    },
    bridge: {
      invoke: (channel: InvokeChannel, args: unknown) =>
        new Promise<Result<unknown>>((resolve) => {
          const result = answer(channel, args);
          queueMicrotask(() => resolve(result));
        }),
      on: () => () => {},
    },
  };
}

const core = fakeCore();
/** Lets every answer and its callbacks run (a macrotask after the microtasks; no clock involved). */
const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

let library: typeof import('./list.svelte.ts').library;
let collections: typeof import('../library-collections.svelte.ts').collections;
let accountScope: typeof import('../../account-scope.ts').accountScope;

beforeAll(async () => {
  // lib/ipc.ts takes the host's bridge from window.atelier when it loads.
  Object.assign(globalThis, { window: { atelier: core.bridge, location: { hash: '' } } });
  library = (await import('./list.svelte.ts')).library;
  collections = (await import('../library-collections.svelte.ts')).collections;
  accountScope = (await import('../../account-scope.ts')).accountScope;
  accountScope.enter('acct-1');
  await settle();
});

beforeEach(async () => {
  core.reset();
  await library.open('acct-1');
  library.filters.apply({ origin: 'generated' });
  await settle();
  core.calls.length = 0;
});

/** The filter (and text) of the last list or search the core was asked for. */
const lastAsked = (): AssetFilter => {
  const call = core.calls.filter((c) => c.channel === 'assets:list' || c.channel === 'assets:search').at(-1);
  if (call?.channel !== 'assets:search') return lastListed();
  // A best-match search: the text to assets:search, the other filters to assets:matching after it.
  const matching = core.calls.filter((c) => c.channel === 'assets:matching').at(-1);
  return { ...(matching?.args as { filter: AssetFilter }).filter, query: (call.args as { query: string }).query };
};

/** The filter of the last list the core was asked for. */
const lastListed = (): AssetFilter => {
  const call = core.calls.filter((c) => c.channel === 'assets:list').at(-1);
  return (call?.args as { filter?: AssetFilter } | undefined)?.filter ?? {};
};

describe('the Library filters', () => {
  it('toggling a filter lists again with it, and again without it', async () => {
    library.filters.toggle('offline');
    await settle();
    expect(lastListed()).toEqual({ origin: 'generated', offline: true });
    expect(library.held.map((a) => a.id)).toEqual(['a8', 'a9', 'a12', 'a13']);
    library.filters.set('kind', 'image');
    await settle();
    expect(lastListed()).toEqual({ origin: 'generated', offline: true, kind: 'image' });
    expect(library.filters.filtered).toBe(true);
    library.filters.toggle('offline');
    await settle();
    expect(lastListed()).toEqual({ origin: 'generated', kind: 'image' });
    library.filters.clear();
    await settle();
    expect(lastListed()).toEqual({ origin: 'generated' });
    expect(library.filters.filtered).toBe(false);
  });

  it('the header total comes from the counts for one filter, none for two', async () => {
    expect(library.expectedTotal).toBe(8);
    library.filters.toggle('favorite');
    expect(library.expectedTotal).toBe(4);
    library.filters.set('kind', 'video');
    expect(library.expectedTotal).toBeNull();
    await settle();
  });

  it('a place starts clean: the filters go, the place stays when they are cleared', async () => {
    library.filters.go({ section: 'uploads', flag: 'favorite' });
    await settle();
    expect(lastListed()).toEqual({ origin: 'uploaded', favorite: true });
    library.filters.clear();
    await settle();
    expect(lastListed()).toEqual({ origin: 'uploaded' });
    library.filters.go({ collectionId: 3 });
    library.filters.toggle('offline');
    library.filters.clear();
    await settle();
    expect(lastListed()).toEqual({ collectionId: 3 });
  });

  it('a smart collection saved with Images + Offline shows as current once opened', async () => {
    library.filters.toggle('offline');
    library.filters.set('kind', 'image');
    const { collectionId: _none, ...search } = library.filters.viewFilter();
    const made = await collections.create('Offline images', search);
    library.filters.go({});
    expect(library.filters.shows(made!.search!)).toBe(false);
    library.filters.apply(made!.search!);
    await settle();
    expect(library.filters.shows(made!.search!)).toBe(true);
  });

  it('a smart collection saved with any combination of filters shows as current, and lists what it saved', async () => {
    await fc.assert(
      fc.asyncProperty(anySavedSearch, async (search) => {
        core.reset();
        const made = await collections.create('Saved', search);
        expect(made?.search).not.toBeNull();
        library.filters.go({ section: 'uploads' });
        library.filters.apply(made!.search!);
        await settle();
        expect(library.filters.shows(made!.search!)).toBe(true);
        expect(sameFilter(lastAsked(), search)).toBe(true);
        // Any other saved search is not current.
        library.filters.toggle('liked');
        expect(library.filters.shows(made!.search!)).toBe(false);
        await settle();
      }),
      { numRuns: 150 },
    );
  });

  it('filters chosen in any order in the bar, saved and opened again, show as current', async () => {
    const step = fc.oneof(
      fc.constantFrom('offline' as const, 'favorite' as const, 'liked' as const).map((flag) => () => {
        library.filters.toggle(flag);
      }),
      fc.option(assetFilterFields.kind, { nil: undefined }).map((kind) => () => library.filters.set('kind', kind)),
      fc
        .option(assetFilterFields.modelId, { nil: undefined })
        .map((model) => () => library.filters.set('modelId', model)),
      fc.tuple(fc.constantFrom('', '2025-03-01', '2025-03-04'), fc.constantFrom('', '2025-03-02', '2025-03-09')).map(
        ([from, to]) =>
          () =>
            library.filters.setDays(from, to),
      ),
      fc.constantFrom('results' as const, 'uploads' as const).map((section) => () => library.filters.go({ section })),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 8 }), async (steps) => {
        core.reset();
        library.filters.go({});
        for (const run of steps) run();
        await settle();
        const { collectionId: _none, ...search } = library.filters.viewFilter();
        const made = await collections.create('From the bar', search);
        library.filters.go({ section: 'uploads', flag: 'favorite' });
        library.filters.apply(made!.search!);
        await settle();
        expect(library.filters.shows(made!.search!)).toBe(true);
      }),
      { numRuns: 100 },
    );
  });

  it('another account starts clean', async () => {
    library.filters.go({ section: 'uploads' });
    library.filters.set('kind', 'video');
    library.filters.toggle('favorite');
    await settle();
    expect(library.count).toBeGreaterThan(0);
    accountScope.enter('acct-2');
    expect(library.filters.current).toEqual({ origin: 'generated' });
    expect(library.filters.query).toBe('');
    expect(library.count).toBe(0);
    expect(library.counts).toBeNull();
    await library.open('acct-2');
    expect(lastListed()).toEqual({ origin: 'generated' });
    accountScope.enter('acct-1');
  });
});

// The real state modules through an account switch, against a fake bridge that plays two accounts
// of the core: what the demo left (a trained model picked with its own settings, a selection, the
// viewer open, collections) is gone after the switch, the new account's data is loaded, and an answer
// for the demo that lands after the switch is dropped.
import { beforeAll, describe, expect, it } from 'vitest';
import type { AccountInfo } from '@contract/ipc/app.ts';
import type { AssetInfo } from '@contract/ipc/assets.ts';
import type { Result } from '@contract/errors.ts';

interface Account {
  info: AccountInfo;
  models: string[];
  collections: string[];
}

const DEMO: Account = {
  info: { mode: 'demo', id: 'demo', keyConfigured: false, keyStorage: 'none', baseUrl: 'http://127.0.0.1:1' },
  models: ['mdl_0001demo000000000'],
  collections: ['Coastlines', 'Product shots'],
};
const REAL: Account = {
  info: { mode: 'service', id: '3f9a0c11d2e4b5a6', keyConfigured: true, keyStorage: 'encrypted', baseUrl: 'https://x' },
  models: ['mdl_0001real000000000'],
  collections: [],
};

const model = (id: string) => ({
  id,
  label: null,
  displayName: id,
  modelType: 'person',
  status: 'ready',
  usable: true,
  createdAt: null,
  updatedAt: null,
  training: { state: 'idle' },
  uploads: { trainingImages: 0, referenceImages: 0 },
});

/** A core with one open account at a time; the next answer can be held back and released later. */
function fakeCore() {
  let open = DEMO;
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const held: (() => void)[] = [];
  let holding = false;
  const answer = (channel: string): Result<unknown> => {
    switch (channel) {
      case 'app:info':
        return {
          ok: true,
          value: {
            name: 'Atelier',
            version: '0',
            dataDir: '/d',
            host: 'browser',
            versions: { node: '', chromium: null, electron: null },
            account: open.info,
          },
        };
      case 'models:list':
        return { ok: true, value: open.models.map(model) };
      case 'collections:list':
        return { ok: true, value: open.collections.map((name, i) => ({ id: i + 1, name, smart: false, count: 66 })) };
      default:
        return { ok: false, error: { code: 'unsupported', message: `not played by the fake: ${channel}` } };
    }
  };
  return {
    bridge: {
      invoke: (channel: string) => {
        const result = answer(channel); // read now: what the core knows when it handles the call
        return new Promise<Result<unknown>>((resolve) => {
          if (holding) {
            holding = false; // only the next call is held
            held.push(() => resolve(result));
          } else queueMicrotask(() => resolve(result));
        });
      },
      on: (event: string, listener: (payload: unknown) => void) => {
        const set = listeners.get(event) ?? new Set();
        set.add(listener);
        listeners.set(event, set);
        return () => set.delete(listener);
      },
    },
    holdNext: () => (holding = true),
    release: () => held.splice(0).forEach((resolve) => resolve()),
    switchTo(account: Account) {
      open = account;
      for (const listener of listeners.get('account:changed') ?? []) listener(account.info);
    },
  };
}

const core = fakeCore();
/** Lets every answer and its callbacks run (a macrotask after the microtasks; no clock involved). */
const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

let state: {
  appInfo: typeof import('./app-info.svelte.ts').appInfo;
  models: typeof import('./models.svelte.ts').models;
  createImage: typeof import('./create-image.svelte.ts').createImage;
  collections: typeof import('./library-collections.svelte.ts').collections;
  selection: typeof import('./library-selection.svelte.ts').selection;
  assetView: typeof import('./asset-view.svelte.ts').assetView;
};

beforeAll(async () => {
  // lib/ipc.ts takes the host's bridge from window.atelier when it loads.
  Object.assign(globalThis, { window: { atelier: core.bridge, location: { hash: '' } } });
  state = {
    appInfo: (await import('./app-info.svelte.ts')).appInfo,
    models: (await import('./models.svelte.ts')).models,
    createImage: (await import('./create-image.svelte.ts')).createImage,
    collections: (await import('./library-collections.svelte.ts')).collections,
    selection: (await import('./library-selection.svelte.ts')).selection,
    assetView: (await import('./asset-view.svelte.ts')).assetView,
  };
  state.appInfo.listen();
  await state.appInfo.load();
  await settle();
});

describe('an account switch through the real state modules', () => {
  it('leaves nothing of the demo and loads the new account', async () => {
    const { models, createImage, collections, selection, assetView } = state;
    expect(models.items.map((m) => m.id)).toEqual(DEMO.models);
    expect(collections.list.map((c) => c.name)).toEqual(DEMO.collections);

    // The demo in use: its trained model picked with a size and a seed, an item selected and open.
    createImage.selectModel(DEMO.models[0]!);
    createImage.setTrained('width', 512);
    createImage.seed.set(42);
    const item = { kind: 'image', id: 'img_0001demo000000000' } as AssetInfo;
    selection.only(item, 0);
    assetView.asset = item;
    expect(createImage.isTrained).toBe(true);

    // A reload of the demo's models is on its way when the account changes.
    core.holdNext();
    void models.load();
    core.switchTo(REAL);
    await settle();
    // The demo's answer lands after the new account's list.
    core.release();
    await settle();

    expect(createImage.modelID).toBe('imagea');
    expect(createImage.isTrained).toBe(false);
    expect(createImage.trained).toEqual({});
    expect(createImage.seed.current).toBeUndefined();
    expect(selection.size).toBe(0);
    expect(selection.known('image:img_0001demo000000000')).toBeUndefined();
    expect(assetView.asset).toBeNull();
    expect(models.items.map((m) => m.id)).toEqual(REAL.models);
    expect(collections.list).toEqual([]);
  });

  it('resets again when the key is removed, and loads nothing without an account', async () => {
    const { models, collections } = state;
    core.switchTo({ ...REAL, info: { ...REAL.info, mode: 'none', id: null, baseUrl: null } });
    await settle();
    expect(models.items).toEqual([]);
    expect(models.loaded).toBe(false);
    expect(collections.list).toEqual([]);
  });
});

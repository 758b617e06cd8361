// The account scope against a fake bridge: what a switch resets and reloads, and which answers it drops.
import { describe, expect, it } from 'vitest';
import type { AtelierBridge } from '@contract/ipc.ts';
import type { Result } from '@contract/errors.ts';
import { AccountScope, accountBound } from './account-scope.ts';

/** A bridge whose answers the test releases by hand, in any order. */
function fakeBridge() {
  const waiting: { channel: string; answer: (result: Result<unknown>) => void }[] = [];
  const bridge = {
    invoke: (channel: string) =>
      new Promise<Result<unknown>>((answer) => {
        waiting.push({ channel, answer });
      }),
    on: () => () => {},
  } as unknown as AtelierBridge;
  return { bridge, waiting };
}

/** Lets every settled promise's callbacks run (no clock involved: a macrotask after the microtasks). */
const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** Whether a promise has settled by now. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(
    () => (done = true),
    () => (done = true),
  );
  await settle();
  return done;
}

class ModelsLike {
  items: string[] = [];
  selectedId: string | null = null;
  loads = 0;
  inFlight: string | null = null;
}

describe('AccountScope', () => {
  it('resets every bound part, then reloads them, when another account opens', () => {
    const scope = new AccountScope();
    const steps: string[] = [];
    scope.bind({ reset: () => steps.push('reset a'), reload: () => steps.push('reload a') });
    scope.bind({ reset: () => steps.push('reset b'), reload: () => steps.push('reload b') });

    expect(scope.enter('demo')).toBe(true);
    expect(steps).toEqual(['reset a', 'reset b', 'reload a', 'reload b']);

    steps.length = 0;
    expect(scope.enter('demo')).toBe(false);
    expect(steps).toEqual([]);

    expect(scope.enter('3f9a0c11d2e4b5a6')).toBe(true);
    expect(steps).toEqual(['reset a', 'reset b', 'reload a', 'reload b']);
  });

  it('resets without loading when the account is closed (the key removed)', () => {
    const scope = new AccountScope();
    const steps: string[] = [];
    scope.enter('3f9a0c11d2e4b5a6');
    scope.bind({ reset: () => steps.push('reset'), reload: () => steps.push('reload') });
    scope.enter(null);
    expect(steps).toEqual(['reset']);
    expect(scope.id).toBeNull();
  });

  it('sets the declared fields back to their initial values and runs the reset hook', () => {
    const scope = new AccountScope();
    const models = new ModelsLike();
    accountBound<ModelsLike>(
      models,
      () => ({ items: [], selectedId: null }),
      { reset: () => (models.inFlight = null), reload: () => (models.loads += 1) },
      scope,
    );
    scope.enter('demo');
    models.items = ['mdl_demo'];
    models.selectedId = 'mdl_demo';
    models.inFlight = 'models:list';

    scope.enter('3f9a0c11d2e4b5a6');
    expect(models).toMatchObject({ items: [], selectedId: null, inFlight: null, loads: 2 });
  });

  it('keeps resetting the other parts when one throws, and reports it', () => {
    const reported: unknown[] = [];
    const scope = new AccountScope((error) => reported.push(error));
    let reset = false;
    scope.bind({
      reset: () => {
        throw new Error('broken part');
      },
    });
    scope.bind({ reset: () => (reset = true) });
    scope.enter('demo');
    expect(reset).toBe(true);
    expect(reported).toEqual([new Error('broken part')]);
  });

  it('unregisters a part', () => {
    const scope = new AccountScope();
    let resets = 0;
    const stop = scope.bind({ reset: () => (resets += 1) });
    scope.enter('demo');
    stop();
    scope.enter(null);
    expect(resets).toBe(1);
  });
});

describe('AccountScope.guard', () => {
  it('drops an answer that arrives after another account opened', async () => {
    const scope = new AccountScope();
    scope.enter('demo');
    const { bridge, waiting } = fakeBridge();
    const guarded = scope.guard(bridge);

    const asked = guarded.invoke('models:list', undefined);
    scope.enter('3f9a0c11d2e4b5a6');
    waiting[0]?.answer({ ok: true, value: [{ id: 'mdl_demo' }] });

    expect(await settled(asked)).toBe(false);
  });

  it('passes an answer of the account it was asked for', async () => {
    const scope = new AccountScope();
    scope.enter('demo');
    const { bridge, waiting } = fakeBridge();
    const asked = scope.guard(bridge).invoke('models:list', undefined);
    waiting[0]?.answer({ ok: true, value: [] });
    await expect(asked).resolves.toEqual({ ok: true, value: [] });
  });

  it('drops the answer even when the account opened again since (a later epoch, not the same id)', async () => {
    const scope = new AccountScope();
    scope.enter('demo');
    const { bridge, waiting } = fakeBridge();
    const asked = scope.guard(bridge).invoke('collections:list', undefined);
    scope.enter('3f9a0c11d2e4b5a6');
    scope.enter('demo');
    waiting[0]?.answer({ ok: true, value: [] });
    expect(await settled(asked)).toBe(false);
  });

  it('never drops the answers that belong to no account: the switch itself, settings, the app', async () => {
    const scope = new AccountScope();
    scope.enter('demo');
    const { bridge, waiting } = fakeBridge();
    const guarded = scope.guard(bridge);
    const switched = guarded.invoke('account:set-key', { key: 'k', verify: true });
    const saved = guarded.invoke('settings:update', {});
    const info = guarded.invoke('app:info', undefined);
    scope.enter('3f9a0c11d2e4b5a6');
    for (const w of waiting) w.answer({ ok: true, value: w.channel });
    await expect(switched).resolves.toEqual({ ok: true, value: 'account:set-key' });
    await expect(saved).resolves.toEqual({ ok: true, value: 'settings:update' });
    await expect(info).resolves.toEqual({ ok: true, value: 'app:info' });
  });
});

// A fake core behind `window.atelier` for the state modules' unit tests: each call's arguments are
// checked with the channel's own schema from the contract (as core/dispatch.ts does, so a state module
// sending what the core would refuse fails its test), answers come from the test's handlers (typed by
// the contract's result types) and events are emitted as the core would. Install it before the first
// import of a state module: lib/ipc.ts takes the bridge when it loads.
import * as v from 'valibot';
import type { Result } from '@contract/errors.ts';
import {
  invokeChannels,
  type AtelierBridge,
  type EventChannel,
  type EventPayload,
  type InvokeArgs,
  type InvokeChannel,
  type InvokeResult,
} from '@contract/ipc.ts';

export type Handlers = {
  [C in InvokeChannel]?: (args: InvokeArgs<C>) => Result<InvokeResult<C>> | Promise<Result<InvokeResult<C>>>;
};

export interface Call {
  channel: InvokeChannel;
  args: unknown;
}

export interface FakeCore {
  bridge: AtelierBridge;
  /** Every call that passed its schema, in order. */
  calls: Call[];
  /** Calls of one channel, their arguments. */
  argsOf<C extends InvokeChannel>(channel: C): InvokeArgs<C>[];
  handle<C extends InvokeChannel>(channel: C, handler: NonNullable<Handlers[C]>): void;
  emit<E extends EventChannel>(event: E, payload: EventPayload<E>): void;
}

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });

export function fakeCore(initial: Handlers = {}): FakeCore {
  const handlers: Handlers = { ...initial };
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const calls: Call[] = [];
  const bridge = {
    async invoke(channel: InvokeChannel, args: unknown): Promise<Result<unknown>> {
      const parsed = v.safeParse(invokeChannels[channel].args as v.GenericSchema, args);
      if (!parsed.success) {
        const message = `${channel}: arguments the core refuses: ${parsed.issues.map((i) => i.message).join('; ')}`;
        throw new Error(message);
      }
      calls.push({ channel, args });
      const handler = handlers[channel] as ((args: unknown) => Result<unknown>) | undefined;
      await Promise.resolve();
      return handler
        ? handler(parsed.output)
        : { ok: false, error: { code: 'unsupported', message: `not played by the fake: ${channel}` } };
    },
    on(event: EventChannel, listener: (payload: unknown) => void): () => void {
      const set = listeners.get(event) ?? new Set();
      set.add(listener);
      listeners.set(event, set);
      return () => set.delete(listener);
    },
  } as unknown as AtelierBridge;
  return {
    bridge,
    calls,
    argsOf: <C extends InvokeChannel>(channel: C) =>
      calls.filter((call) => call.channel === channel).map((call) => call.args as InvokeArgs<C>),
    handle: (channel, handler) => {
      (handlers as Record<string, unknown>)[channel] = handler;
    },
    emit: (event, payload) => {
      for (const listener of listeners.get(event) ?? []) listener(payload);
    },
  };
}

/** Puts the fake where lib/ipc.ts looks (a window with no DOM: the state modules need none). */
export function installFakeCore(core: FakeCore): void {
  Object.assign(globalThis, {
    window: {
      atelier: core.bridge,
      location: { hash: '' },
      addEventListener: () => {},
      removeEventListener: () => {},
    },
  });
}

/** Lets every answer and its callbacks run (a macrotask after the microtasks; no clock involved). */
export const settle = (): Promise<void> => new Promise<void>((resolve) => setTimeout(resolve, 0));

// The one mechanism that keys the renderer's state by the open account. The core names the account
// (AccountInfo.id: an opaque hash of its database folder, or 'demo'; never the key); app-info tells
// this scope whenever it changes. A state module that holds account data declares its account-bound
// fields once with `accountBound(this, () => initial, { reload })`: on every switch (demo → key,
// key → other key or address, key removed, and back) each bound part is reset to its initial values
// first, then the new account's data is loaded. Answers to invokes made for a previous account are
// dropped here (lib/ipc.ts guards every account channel), so nothing of it lands after the reset.
import type { AtelierBridge, InvokeChannel } from '@contract/ipc.ts';

export interface AccountBound {
  /** Back to what a fresh start holds: nothing of any account. */
  reset(): void;
  /** Loads the open account's data; called after every part was reset, and only with an account open. */
  reload?(): unknown;
}

/**
 * Channels whose answers do not belong to one account, and are never dropped: the app itself, the
 * account switch (its answer is the switch), settings, the shell, the library folder and its move.
 */
const UNSCOPED = /^(app|account|settings|shell):|^library:(move|move-abort|move-progress|use-folder)$/;

export const isAccountChannel = (channel: InvokeChannel): boolean => !UNSCOPED.test(channel);

/** A bound part that throws is reported on its own (an uncaught error), after the others were reset. */
const rethrowLater = (error: unknown): void =>
  queueMicrotask(() => {
    throw error;
  });

export class AccountScope {
  constructor(private readonly report: (error: unknown) => void = rethrowLater) {}

  /** undefined until the core has said which account is open. */
  #id: string | null | undefined = undefined;
  #epoch = 0;
  readonly #parts = new Set<AccountBound>();

  /** The open account's id; null with none, undefined before the core has said. */
  get id(): string | null | undefined {
    return this.#id;
  }

  /** Counts the accounts seen: an invoke made under one epoch is answered only within it. */
  get epoch(): number {
    return this.#epoch;
  }

  /** Registers state that belongs to the account; returns the unregister. */
  bind(part: AccountBound): () => void {
    this.#parts.add(part);
    return () => this.#parts.delete(part);
  }

  /**
   * The core says which account is open. Another account than before: every bound part is reset,
   * then (with an account open) reloaded. Returns whether the account changed.
   */
  enter(id: string | null): boolean {
    if (id === this.#id) return false;
    this.#id = id;
    this.#epoch += 1;
    const parts = [...this.#parts];
    for (const part of parts) this.#each(() => part.reset());
    if (id !== null) for (const part of parts) this.#each(() => void part.reload?.());
    return true;
  }

  /** One part's step: one that throws must not keep the others from theirs. */
  #each(step: () => void): void {
    try {
      step();
    } catch (error) {
      this.report(error);
    }
  }

  /**
   * The bridge, with every account channel's answer dropped when another account opened while it
   * was on its way: its promise never settles, so nothing awaiting it writes the previous account's
   * data into state that was reset meanwhile (what waited belongs to the reset state or to a view
   * that was remounted for the new account).
   */
  guard(bridge: AtelierBridge): AtelierBridge {
    return {
      on: (event, listener) => bridge.on(event, listener),
      invoke: (channel, args) => {
        const made = this.#epoch;
        const answer = bridge.invoke(channel, args);
        if (!isAccountChannel(channel)) return answer;
        return answer.then((result) => (made === this.#epoch ? result : new Promise<never>(() => {})));
      },
    };
  }
}

export const accountScope = new AccountScope();

/**
 * Declares fields of `target` (a state module) as belonging to the account: on every switch they
 * are set back to `initial()` (and `hooks.reset` clears what is private, like an in-flight load),
 * then `hooks.reload` loads the new account's data. Call it once, in the module's constructor.
 */
export function accountBound<T extends object>(
  target: T,
  initial: () => Partial<T>,
  hooks: { reset?(): void; reload?(): unknown } = {},
  scope: AccountScope = accountScope,
): () => void {
  return scope.bind({
    reset: () => {
      Object.assign(target, initial());
      hooks.reset?.();
    },
    ...(hooks.reload ? { reload: hooks.reload } : {}),
  });
}

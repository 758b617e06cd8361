// What outlives a call, kept in one store and closed in one rule: newest first, each closer awaited
// before the next, a closer that fails reported and the rest closed all the same. The core keeps
// one for itself (core.ts), and the account services one per open account (account-services.ts),
// so a thing that starts later (the jobs engine after the library, a demo timer after both) is
// stopped before what it may still use. (A small DisposableStack: the same order, plus names for
// the log, a remover for what ends on its own, and a close that may be asked for twice.)

export type Closer = () => void | Promise<void>;

export class Disposables {
  readonly #onError: (name: string, error: unknown) => void;
  #entries: { name: string; close: Closer }[] = [];
  #closing: Promise<void> | null = null;
  #closed = false;

  /** `onError`: told of each closer that threw or rejected (by its name); the others still run. */
  constructor(onError: (name: string, error: unknown) => void) {
    this.#onError = onError;
  }

  /** True once close() was asked for: nothing should start for this lifetime any more. */
  get closed(): boolean {
    return this.#closing !== null;
  }

  /** How many closers wait. */
  get size(): number {
    return this.#entries.length;
  }

  /**
   * Registers `close` under `name`. Returns a remover for what ends on its own (a timer that fired,
   * a lookup that answered). Added while closing, it is closed next (and awaited by close());
   * added once everything is closed, it is closed at once.
   */
  add(name: string, close: Closer): () => void {
    const entry = { name, close };
    if (this.#closed) {
      void this.#run(entry);
      return () => {};
    }
    this.#entries.push(entry);
    return () => {
      this.#entries = this.#entries.filter((e) => e !== entry);
    };
  }

  /** A timer of this lifetime: cleared on close, forgotten once it has fired. */
  setTimeout(name: string, run: () => void, ms: number): void {
    if (this.#closing) return;
    const timer = setTimeout(() => {
      remove();
      run();
    }, ms);
    const remove = this.add(name, () => clearTimeout(timer));
  }

  /** Closes everything, newest first, each awaited; the same promise when asked again. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      while (this.#entries.length > 0) await this.#run(this.#entries.pop()!);
      this.#closed = true;
    })();
    return this.#closing;
  }

  async #run(entry: { name: string; close: Closer }): Promise<void> {
    try {
      await entry.close();
    } catch (error) {
      this.#onError(entry.name, error);
    }
  }
}

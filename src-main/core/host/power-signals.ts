// Power and network signals the background engine reacts to: pause polling while the machine
// sleeps, catch up on resume, wait instead of failing while offline.

export interface PowerSignals {
  /** Each on… returns its unsubscribe function. */
  onSuspend(listener: () => void): () => void;
  onResume(listener: () => void): () => void;
  onOnlineChange(listener: (online: boolean) => void): () => void;
  isOnline(): boolean;
}

/** The host side of PowerSignals: the shell feeds it from powerMonitor/net, tests drive it by hand. */
export interface PowerSignalHub extends PowerSignals {
  suspend(): void;
  resume(): void;
  /** Tells listeners only when the state really changes. */
  setOnline(online: boolean): void;
}

export function createPowerSignalHub(
  options: { online?: boolean; onListenerError?: (error: unknown) => void } = {},
): PowerSignalHub {
  let online = options.online ?? true;
  const suspend = new Set<() => void>();
  const resume = new Set<() => void>();
  const onlineChange = new Set<(online: boolean) => void>();
  const add = <L>(set: Set<L>, listener: L): (() => void) => {
    set.add(listener);
    return () => void set.delete(listener);
  };
  const call = <A extends unknown[]>(set: Set<(...args: A) => void>, ...args: A): void => {
    for (const listener of [...set]) {
      try {
        listener(...args);
      } catch (error) {
        options.onListenerError?.(error);
      }
    }
  };
  return {
    onSuspend: (listener) => add(suspend, listener),
    onResume: (listener) => add(resume, listener),
    onOnlineChange: (listener) => add(onlineChange, listener),
    isOnline: () => online,
    suspend: () => call(suspend),
    resume: () => call(resume),
    setOnline(next) {
      if (next === online) return;
      online = next;
      call(onlineChange, next);
    },
  };
}

/** Hosts that cannot tell (the CLI): always online, never asleep; network errors still surface. */
export const steadyPowerSignals: PowerSignals = {
  onSuspend: () => () => {},
  onResume: () => () => {},
  onOnlineChange: () => () => {},
  isOnline: () => true,
};

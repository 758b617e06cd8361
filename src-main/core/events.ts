// The core's typed event bus: handlers emit, hosts (shell, browser mode, CLI) forward.
import type { EventChannel, EventPayload } from '../contract/ipc.ts';

export type EventListener = <E extends EventChannel>(event: E, payload: EventPayload<E>) => void;

export interface EventBus {
  emit<E extends EventChannel>(event: E, payload: EventPayload<E>): void;
  /** Returns the unsubscribe function. */
  subscribe(listener: EventListener): () => void;
}

export function createEventBus(onListenerError: (error: unknown) => void = () => {}): EventBus {
  const listeners = new Set<EventListener>();
  return {
    emit(event, payload) {
      for (const listener of listeners) {
        // One broken listener (a closed socket, a destroyed window) must not starve the others.
        try {
          listener(event, payload);
        } catch (error) {
          onListenerError(error);
        }
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

// The only file that touches window.atelier: the typed bridge to the core, whichever host runs it.
import type {
  AtelierBridge,
  EventChannel,
  EventPayload,
  InvokeArgs,
  InvokeChannel,
  InvokeResult,
} from '@contract/ipc.ts';
import type { Result } from '@contract/errors.ts';
import { accountScope } from './account-scope.ts';
import { createWebSocketBridge } from './ws-bridge.ts';

declare global {
  interface Window {
    atelier?: AtelierBridge;
  }
}

// An answer for an account that is no longer open is dropped on its way (account-scope.ts).
const bridge: AtelierBridge = accountScope.guard(window.atelier ?? createWebSocketBridge());

export function invoke<C extends InvokeChannel>(
  channel: C,
  ...args: undefined extends InvokeArgs<C> ? [InvokeArgs<C>?] : [InvokeArgs<C>]
): Promise<Result<InvokeResult<C>>> {
  return bridge.invoke(channel, args[0] as InvokeArgs<C>);
}

export function on<E extends EventChannel>(event: E, listener: (payload: EventPayload<E>) => void): () => void {
  return bridge.on(event, listener);
}

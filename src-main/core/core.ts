// Composition root: builds the core's services from injected host adapters and returns the
// handlers of every contract channel, the event bus and a clean shutdown.
import { mkdirSync } from 'node:fs';
import { createDispatcher, type Dispatch, type Handlers } from './dispatch.ts';
import { createEventBus, type EventBus } from './events.ts';
import type { CoreContext, HostInfo } from './context.ts';
import { appHandlers } from './handlers/app.ts';

export interface CoreDeps {
  dataDir: string;
  host: HostInfo;
  /** Where unexpected errors go (already redacted by the caller's logger). */
  logError?: (message: string, error: unknown) => void;
}

export interface Core {
  dispatch: Dispatch;
  events: EventBus;
  close(): Promise<void>;
}

export async function createCore(deps: CoreDeps): Promise<Core> {
  mkdirSync(deps.dataDir, { recursive: true });
  const logError = deps.logError ?? ((message, error) => console.error(message, error));
  const events = createEventBus((error) => logError('event listener failed', error));
  const ctx: CoreContext = {
    dataDir: deps.dataDir,
    host: deps.host,
    events,
    account: () => ({ mode: 'none', keyConfigured: false, keyStorage: 'none', baseUrl: null }),
  };
  const handlers: Handlers = {
    ...appHandlers(ctx),
  };
  const dispatch = createDispatcher(handlers, (channel, error) => logError(`handler ${channel} failed`, error));
  return {
    dispatch,
    events,
    async close() {},
  };
}

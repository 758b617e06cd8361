// Handlers of sync:*: refresh the open account's cache from the service, and its sync status.
import type { SyncResultInfo, SyncScopeInfo, SyncStatusInfo } from '../../contract/ipc/sync.ts';
import type { Syncer } from '../sync/syncer.ts';

export function syncHandlers(deps: { syncer(): Syncer }) {
  return {
    'sync:refresh': (args: { scope: SyncScopeInfo }): Promise<SyncResultInfo> => deps.syncer().refresh(args.scope),
    'sync:status': (): SyncStatusInfo => deps.syncer().status(),
  };
}

// Handlers of sync:* and service:*: refresh the open account's cache from the service, its sync
// status, and whether the service can be reached (core/host/service-reach.ts).
import type { ServiceReachInfo, SyncResultInfo, SyncScopeInfo, SyncStatusInfo } from '../../contract/ipc/sync.ts';
import type { ServiceReach } from '../host/service-reach.ts';
import type { Syncer } from '../sync/syncer.ts';

export function syncHandlers(deps: { syncer(): Syncer; reach: ServiceReach }) {
  return {
    'service:status': (): ServiceReachInfo => deps.reach.info(),
    'service:check': (): Promise<ServiceReachInfo> => deps.reach.check(),
    'sync:refresh': (args: { scope: SyncScopeInfo }): Promise<SyncResultInfo> => deps.syncer().refresh(args.scope),
    'sync:status': (): SyncStatusInfo => deps.syncer().status(),
  };
}

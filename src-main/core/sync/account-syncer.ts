// Builds the syncer of one open account (core/account-services.ts starts and stops it): refreshes
// of its cache from its client, with the renderer's events after each refresh.
import type { SyncResultInfo } from '../../contract/ipc/sync.ts';
import type { AccountSession } from '../account/types.ts';
import type { JobListGate } from '../api/job-list-gate.ts';
import type { EventBus } from '../events.ts';
import type { AppliedChanges } from './apply-snapshot.ts';
import { createSyncer, type Syncer } from './syncer.ts';

function emitSyncEvents(events: EventBus, result: SyncResultInfo, changes: AppliedChanges): void {
  events.emit('sync:changed', result);
  if (changes.changedModelIds.length > 0)
    events.emit('models:changed', { reason: 'sync', ids: changes.changedModelIds });
  if (changes.changedAssetKinds.length > 0)
    events.emit('assets:changed', { reason: 'sync', kinds: changes.changedAssetKinds });
}

export function createAccountSyncer(session: AccountSession, events: EventBus, listGate?: JobListGate): Syncer {
  return createSyncer({
    cache: session.cache,
    source: session.client,
    ...(listGate ? { listGate } : {}),
    onSynced: (result, changes) => emitSyncEvents(events, result, changes),
    onStatus: (status) => events.emit('sync:status-changed', status),
  });
}

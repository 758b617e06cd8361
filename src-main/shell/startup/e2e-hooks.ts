// Read by the Electron e2e (e2e/electron) through electronApp.evaluate; main-process only, and
// only when ATELIER_E2E_HOOKS=1.
import type { QueueCountsInfo } from '../../contract/ipc/shell.ts';
import type { AppTray } from '../tray.ts';

export interface E2eHooks {
  tray(): AppTray | null;
  notify(notification: { title: string; body: string; jobId?: string; assetId?: string }): void;
  clickLastNotification(): void;
  emitQueueCounts(counts: QueueCountsInfo): void;
}

export function exposeE2eHooks(hooks: E2eHooks): void {
  if (process.env.ATELIER_E2E_HOOKS === '1') (globalThis as { __atelierE2e?: E2eHooks }).__atelierE2e = hooks;
}

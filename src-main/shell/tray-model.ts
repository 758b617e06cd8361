// What the tray shows for the queue: tooltip, the macOS title next to the icon and the menu
// items, plus "Restart to Update" once an update is downloaded. Pure; tray.ts turns it into a
// native Tray and Menu.
import type { QueueCountsInfo } from '../contract/ipc/shell.ts';
import { withDemoBadge } from './demo-badge.ts';
import type { UpdateOffer } from './updater/update-policy.ts';

export type TrayCommand = 'open' | 'toggle-polling' | 'restart-to-update' | 'quit';

export type TrayItem =
  | { kind: 'status'; label: string }
  | { kind: 'separator' }
  | { kind: 'command'; command: TrayCommand; label: string; checked?: boolean; enabled?: boolean };

export interface TrayModel {
  tooltip: string;
  /** macOS shows this next to the icon: the number of running jobs, or nothing when idle. */
  title: string;
  items: TrayItem[];
}

const count = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

const sane = (n: number): number => (Number.isFinite(n) && n > 0 ? Math.floor(n) : 0);

export function queueSummary(counts: QueueCountsInfo): string {
  const running = sane(counts.running);
  const queued = sane(counts.queued);
  if (running === 0 && queued === 0) return 'No jobs in progress';
  const parts: string[] = [];
  if (running > 0) parts.push(`${count(running, 'job', 'jobs')} running`);
  if (queued > 0) parts.push(`${queued} queued`);
  return parts.join(', ');
}

export function trayModel(
  appName: string,
  counts: QueueCountsInfo,
  pollingPaused: boolean,
  demo = false,
  update: UpdateOffer | null = null,
): TrayModel {
  const summary = queueSummary(counts);
  const updateItems: TrayItem[] = update
    ? [
        {
          kind: 'command',
          command: 'restart-to-update',
          label: update.label,
          ...(update.enabled ? {} : { enabled: false }),
        },
        { kind: 'separator' },
      ]
    : [];
  const running = sane(counts.running);
  const status = pollingPaused ? `${summary} · checking paused` : summary;
  return {
    tooltip: `${withDemoBadge(appName, demo)} — ${summary}${pollingPaused ? ' (checking paused)' : ''}`,
    title: running > 0 ? String(running) : '',
    items: [
      { kind: 'status', label: demo ? `Demo · ${status}` : status },
      { kind: 'separator' },
      ...updateItems,
      { kind: 'command', command: 'open', label: `Open ${appName}` },
      { kind: 'command', command: 'toggle-polling', label: 'Pause Checking Jobs', checked: pollingPaused },
      { kind: 'separator' },
      { kind: 'command', command: 'quit', label: `Quit ${appName}` },
    ],
  };
}

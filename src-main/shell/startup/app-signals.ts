// What the core's events and settings change outside the window: the tray (queue counts,
// paused checking, the Demo badge), the window title, keeping the app awake while jobs run,
// and the Open at login entry.
import type { AccountInfo } from '../../contract/ipc/app.ts';
import type { QueueCountsInfo } from '../../contract/ipc/shell.ts';
import type { Core } from '../../core/core.ts';
import { isDemo } from '../demo-badge.ts';
import type { KeepAwake } from '../keep-awake.ts';
import type { TrayPresence } from './tray-presence.ts';

export interface AppSignalsOptions {
  core: Core;
  trays: TrayPresence;
  keepAwake: KeepAwake;
  /** The Demo badge changed (the window title follows). */
  onDemoMode(demo: boolean): void;
  applyOpenAtLogin(on: boolean): void;
}

export interface AppSignals {
  demoMode(): boolean;
  showAccount(account: AccountInfo | null): void;
  stop(): void;
}

export function followAppSignals(options: AppSignalsOptions): AppSignals {
  const { core, trays } = options;
  const settings = core.settings;
  let counts: QueueCountsInfo = { queued: 0, running: 0 };
  let demo = false;
  const updateTray = (): void => trays.update(counts, settings.get().pollingPaused, demo);
  const showAccount = (account: AccountInfo | null): void => {
    demo = isDemo(account);
    options.onDemoMode(demo);
    updateTray();
  };
  updateTray();
  const stopEvents = core.events.subscribe((event, payload) => {
    if (event === 'account:changed') return showAccount(payload as AccountInfo);
    if (event !== 'queue:counts') return;
    counts = payload as QueueCountsInfo;
    options.keepAwake.setJobs(counts);
    updateTray();
  });
  // At start only when on (the launch path may have moved with an update); then on every change.
  if (settings.get().openAtLogin) options.applyOpenAtLogin(true);
  const stopSettings = settings.onChange((values, changed) => {
    if (changed.includes('pollingPaused')) updateTray();
    if (changed.includes('openAtLogin')) options.applyOpenAtLogin(values.openAtLogin);
  });
  return {
    demoMode: () => demo,
    showAccount,
    stop() {
      stopEvents();
      stopSettings();
    },
  };
}

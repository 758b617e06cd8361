// What every handler group receives from the composition root (core.ts).
import type { AccountInfo } from '../contract/ipc/app.ts';
import type { EventBus } from './events.ts';
import type { AccountManager } from './account/account-manager.ts';
import type { Settings } from './settings/settings.ts';
import type { HostServices } from './host/host-services.ts';

export interface HostInfo {
  kind: 'electron' | 'browser' | 'cli';
  appVersion: string;
  chromiumVersion: string | null;
  electronVersion: string | null;
}

export interface CoreContext {
  dataDir: string;
  host: HostInfo;
  events: EventBus;
  account(): AccountInfo;
  /** The open account (cache, client) for handlers: `ctx.accounts.requireSession()`. */
  accounts: AccountManager;
  settings: Settings;
  /** Notifications, power/online signals, taskbar progress, desktop actions (core/host). */
  hostServices: HostServices;
  /** The URL the renderer loads a library file from (host-specific; see CoreDeps.mediaUrlFor). */
  mediaUrlFor(relativePath: string): string;
}

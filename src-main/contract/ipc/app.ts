// Channels about the app itself: versions, folders, account state.
import * as v from 'valibot';
import { invoke, type } from './channel.ts';

export interface AccountInfo {
  /** 'demo' runs against the in-process emulator; 'service' against the configured base URL. */
  mode: 'none' | 'demo' | 'service';
  /**
   * Which account is open, as an opaque name (its database folder's: a hash of the service address
   * and the key's fingerprint, or 'demo'; never the key); null with none. The renderer keys every
   * piece of state that belongs to an account by it (state/account-scope.svelte.ts).
   */
  id: string | null;
  keyConfigured: boolean;
  /** Where the key is kept: encrypted at rest, this session only, or weakly (user opted in). */
  keyStorage: 'encrypted' | 'session' | 'plain' | 'none';
  baseUrl: string | null;
  /**
   * Why the saved account could not be opened (its database was written by a newer Atelier, is
   * damaged or unreadable, the folder is read-only or the disk full); null or absent otherwise.
   */
  openProblem?: AccountOpenProblemInfo | null;
}

export interface AccountOpenProblemInfo {
  kind: 'newer' | 'damaged' | 'unreadable' | 'read_only' | 'disk_full' | 'other';
  message: string;
  /** The folder holding the database, to look at it; null when unknown. */
  folder: string | null;
  /** Whether "Start fresh" can set the old file aside (kept next to it) and open a new one. */
  canStartFresh: boolean;
}

export interface AppInfo {
  name: string;
  version: string;
  dataDir: string;
  versions: { node: string; chromium: string | null; electron: string | null };
  /** Which host runs the core: the Electron shell, browser mode or the atelier CLI. */
  host: 'electron' | 'browser' | 'cli';
  account: AccountInfo;
}

export interface NoticeInfo {
  level: 'info' | 'warning' | 'error';
  message: string;
}

export const appInvoke = {
  'app:info': invoke(v.undefined(), type<AppInfo>()),
};

export const appEvents = {
  /** Something the user should see once (a toast). */
  'app:notice': type<NoticeInfo>(),
  'account:changed': type<AccountInfo>(),
};

// Whether a tray icon would really be seen. Windows and macOS always show one. On Linux a tray
// icon is a StatusNotifierItem: without a StatusNotifier host on the session bus (a bare
// GNOME, many tiling window managers) it is shown nowhere, and a window hidden "to the tray"
// could never be brought back, so closing it must quit instead.
import { execFile } from 'node:child_process';

/** Runs a program and resolves with its standard output; rejects on failure or timeout. */
export type RunProgram = (file: string, args: readonly string[], timeoutMs: number) => Promise<string>;

export const STATUS_NOTIFIER_WATCHER = 'org.kde.StatusNotifierWatcher';

const NAME_HAS_OWNER = [
  '--session',
  '--print-reply',
  '--reply-timeout=1000',
  '--dest=org.freedesktop.DBus',
  '/org/freedesktop/DBus',
  'org.freedesktop.DBus.NameHasOwner',
  `string:${STATUS_NOTIFIER_WATCHER}`,
] as const;

/** dbus-send prints the reply as `method return …` then `   boolean true|false`. */
export const replySaysOwned = (stdout: string): boolean => /^\s*boolean\s+true\s*$/m.test(stdout);

export async function trayIsShown(platform: NodeJS.Platform, run: RunProgram = runProgram): Promise<boolean> {
  if (platform !== 'linux') return true;
  try {
    return replySaysOwned(await run('dbus-send', NAME_HAS_OWNER, 1_500));
  } catch {
    // No dbus-send, no session bus or no answer in time: nothing says a tray would be seen.
    return false;
  }
}

export const runProgram: RunProgram = (file, args, timeoutMs) =>
  new Promise((resolve, reject) => {
    execFile(file, [...args], { timeout: timeoutMs, windowsHide: true }, (error, stdout) => {
      if (error) reject(error);
      else resolve(String(stdout));
    });
  });

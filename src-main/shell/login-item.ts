// "Open at login": macOS and Windows through Electron's login items; Linux through an XDG
// autostart entry (~/.config/autostart/atelier.desktop), which Electron does not write.
// The launch command is the one that started this copy: an AppImage by its own path, a
// development run as Electron with the app folder.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export interface LaunchFacts {
  platform: NodeJS.Platform;
  isPackaged: boolean;
  execPath: string;
  appPath: string;
  env: NodeJS.ProcessEnv;
}

/** The program and arguments that start this copy of the app. */
export function launchCommand(facts: LaunchFacts): { path: string; args: string[] } {
  if (facts.platform === 'linux' && facts.env.APPIMAGE) return { path: facts.env.APPIMAGE, args: [] };
  return { path: facts.execPath, args: facts.isPackaged ? [] : [facts.appPath] };
}

/** What app.setLoginItemSettings gets on macOS and Windows. */
export function loginItemSettings(openAtLogin: boolean, facts: LaunchFacts) {
  const { path, args } = launchCommand(facts);
  return facts.platform === 'win32' ? { openAtLogin, path, args } : { openAtLogin };
}

/** Desktop Entry quoting: an argument in double quotes with ", `, $ and \ escaped. */
const quoteExecArg = (arg: string): string => `"${arg.replace(/(["`$\\])/g, '\\$1')}"`;

export function autostartEntry(appName: string, facts: LaunchFacts): string {
  const { path, args } = launchCommand(facts);
  return [
    '[Desktop Entry]',
    'Type=Application',
    `Name=${appName}`,
    `Exec=${[path, ...args].map(quoteExecArg).join(' ')}`,
    'Terminal=false',
    'X-GNOME-Autostart-enabled=true',
    '',
  ].join('\n');
}

export const autostartFile = (env: NodeJS.ProcessEnv, home = homedir()): string =>
  join(env.XDG_CONFIG_HOME || join(home, '.config'), 'autostart', 'atelier.desktop');

export interface LoginItemHost {
  setLoginItemSettings(settings: ReturnType<typeof loginItemSettings>): void;
}

/** Makes the system match the setting (called at start and whenever it changes). */
export function applyOpenAtLogin(openAtLogin: boolean, appName: string, facts: LaunchFacts, host: LoginItemHost): void {
  if (facts.platform === 'darwin' || facts.platform === 'win32') {
    host.setLoginItemSettings(loginItemSettings(openAtLogin, facts));
    return;
  }
  const file = autostartFile(facts.env);
  if (!openAtLogin) {
    rmSync(file, { force: true });
    return;
  }
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, autostartEntry(appName, facts), { mode: 0o644 });
}

// Where Atelier keeps its data: the same folder for the Electron app, browser mode and the CLI.
import { homedir } from 'node:os';
import { join } from 'node:path';

export const APP_NAME = 'Atelier';

export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  if (env.ATELIER_DATA_DIR) return env.ATELIER_DATA_DIR;
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), APP_NAME);
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', APP_NAME);
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), APP_NAME);
}

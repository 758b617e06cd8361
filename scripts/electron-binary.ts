// Finds the Electron binary of the `electron` package without triggering its download: requiring
// the package (`electron/index.js`) downloads on first use and throws where that fails. `npm
// start` and the `_electron` e2e specs both look here; `electron-install.ts` installs it.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageDir } from './package-bin.ts';

/** Where the binary sits inside the package's `dist` folder (as electron's install.js writes path.txt). */
export function electronPlatformPath(platform: NodeJS.Platform = process.platform): string {
  switch (platform) {
    case 'darwin':
      return 'Electron.app/Contents/MacOS/Electron';
    case 'win32':
      return 'electron.exe';
    default:
      return 'electron';
  }
}

export function electronPackageDir(): string {
  return packageDir('electron');
}

/** The version of the installed `electron` package (the binary it downloads has the same). */
export function electronVersion(packageFolder = electronPackageDir()): string {
  return (JSON.parse(readFileSync(join(packageFolder, 'package.json'), 'utf8')) as { version: string }).version;
}

/**
 * The binary `electron` would run, or null when it is not there (yet). Honours
 * ELECTRON_OVERRIDE_DIST_PATH (a folder holding a binary of your own) like the package does.
 */
export function electronBinary(env: NodeJS.ProcessEnv = process.env, packageFolder?: string): string | null {
  try {
    packageFolder ??= electronPackageDir();
  } catch {
    return null;
  }
  const pathFile = join(packageFolder, 'path.txt');
  const written = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : '';
  const override = env.ELECTRON_OVERRIDE_DIST_PATH;
  if (!override && !written) return null;
  const binary = join(override || join(packageFolder, 'dist'), written || electronPlatformPath());
  return existsSync(binary) ? binary : null;
}

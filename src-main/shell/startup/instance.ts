// Step one: the data folder and the single-instance lock, which Electron keeps inside that
// folder. A folder that cannot be made makes the lock request answer "taken", which would look
// like another copy running and quit silently: so the folder is made (and found writable) first.
import { accessSync, constants, mkdirSync } from 'node:fs';

/** The part of Electron's `app` this uses. */
export interface InstanceApp {
  setPath(name: 'userData', path: string): void;
  setName(name: string): void;
  requestSingleInstanceLock(): boolean;
}

/** false: another copy holds the lock (it has been told to show its window); quit quietly. */
export function claimInstance(app: InstanceApp, dataDir: string, appName: string): boolean {
  mkdirSync(dataDir, { recursive: true });
  accessSync(dataDir, constants.W_OK);
  app.setPath('userData', dataDir);
  app.setName(appName);
  return app.requestSingleInstanceLock();
}

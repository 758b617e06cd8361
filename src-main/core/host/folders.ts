// Folders the hosts open for the user. Logs live in the data folder so one "Open logs folder"
// works the same in the app, browser mode and the CLI.
import { join } from 'node:path';

export const logsDir = (dataDir: string): string => join(dataDir, 'logs');

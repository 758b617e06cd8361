// Electron entry: hands over to the shell at once.
import { startShell } from './shell/main.ts';

void startShell();

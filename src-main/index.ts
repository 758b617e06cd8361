// Electron entry: hands over to the shell at once (it reports its own failures).
import { runShell } from './shell/main.ts';

runShell();

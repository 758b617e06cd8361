#!/usr/bin/env node
// The `atelier` command line: a thin front on the same core, data folder and library as the app.
import { readFileSync } from 'node:fs';
import { ALL_COMMANDS } from './commands/index.ts';
import { runCli } from './run.ts';

const version = (() => {
  try {
    return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  } catch {
    return '0.0.0';
  }
})();

// First Ctrl-C: stop cleanly (commands see the signal, the core closes, jobs stay recorded).
// A second one: the user insists, leave at once.
const stop = new AbortController();
let interrupts = 0;
const onSignal = (signal: NodeJS.Signals): void => {
  interrupts += 1;
  if (interrupts > 1) process.exit(signal === 'SIGINT' ? 130 : 143);
  stop.abort(new Error(`Stopped by ${signal}`));
};
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);

const code = await runCli({
  args: process.argv.slice(2),
  env: process.env,
  commands: ALL_COMMANDS,
  signal: stop.signal,
  version,
  stdout: process.stdout,
  stderr: process.stderr,
});
// Leave even if a library keeps a socket or timer alive; stdout is written synchronously to
// files and pipes on POSIX, and the callback covers the rest.
process.stdout.write('', () => process.exit(code));

#!/usr/bin/env node
// The `atelier` command line: a thin front on the same core, data folder and library as the app.
import { readFileSync } from 'node:fs';
import { ALL_COMMANDS } from './commands/index.ts';
import { runCli } from './run.ts';

const version = (() => {
  try {
    return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string })
      .version;
  } catch {
    return '0.0.0';
  }
})();

// First Ctrl-C: stop cleanly (commands see the signal, the core closes, jobs stay recorded).
// Another one later: the user insists, leave at once. Repeats within a second count as the
// first: `conf` (through atomically/when-exit) re-raises the signal it saw on the process itself.
const stop = new AbortController();
let firstSignalAt = 0;
const onSignal = (signal: NodeJS.Signals): void => {
  const now = Date.now();
  if (firstSignalAt === 0) {
    firstSignalAt = now;
    stop.abort(new Error(`Stopped by ${signal}`));
  } else if (now - firstSignalAt > 1_000) {
    process.exit(signal === 'SIGINT' ? 130 : 143);
  }
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

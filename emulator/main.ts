// CLI: `npm run emulator -- [flags]` starts the emulator and prints exactly one line with its address.
import { CliUsageError, parseCli, USAGE } from './cli-args.ts';
import { startEmulator } from './index.ts';

async function main(): Promise<void> {
  let parsed;
  try {
    parsed = parseCli(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof CliUsageError)) throw error;
    process.stderr.write(`${error.message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (parsed.help) {
    process.stdout.write(USAGE);
    return;
  }
  const emulator = await startEmulator(parsed.options);
  process.stdout.write(`Emulator listening at ${emulator.url}\n`);
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    emulator.close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`Emulator did not close cleanly: ${(error as Error).message}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`Emulator failed to start: ${(error as Error).message}\n`);
  process.exit(1);
});

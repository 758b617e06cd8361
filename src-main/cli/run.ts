// Runs one command line: parse, help, open the core lazily, run, map any failure to its exit
// code and message, and always close the core so jobs in flight stay recorded for next time.
import type { ErrorInfo } from '../contract/errors.ts';
import { AppError } from '../contract/errors.ts';
import type { CliContext, Command } from './command.ts';
import { CliError, EXIT, errorLines, exitCodeFor, type ExitCode } from './exit-codes.ts';
import { redactSecrets } from '../core/secrets/redact.ts';
import { commandHelp, listHelp } from './help.ts';
import { Output, type OutputStreams } from './output.ts';
import { parseCommandLine } from './parse.ts';
import { openSession, type Session } from './session.ts';

export interface RunOptions extends OutputStreams {
  args: readonly string[];
  env: NodeJS.ProcessEnv;
  commands: readonly Command[];
  signal: AbortSignal;
  version: string;
}

export async function runCli(options: RunOptions): Promise<ExitCode> {
  const wantsJson = options.args.includes('--json');
  let out = new Output(options, { json: wantsJson, quiet: options.args.includes('--quiet') });
  let session: Session | null = null;
  try {
    const line = parseCommandLine(options.args, options.commands);
    out = new Output(options, { json: line.globals.json, quiet: line.globals.quiet });
    if (line.globals.version && !line.command) {
      out.result({ version: options.version }, () => options.version);
      return EXIT.ok;
    }
    if (line.globals.help || !line.command) {
      const text = line.command ? commandHelp(line.command) : listHelp(options.commands, line.words);
      out.result({ help: text }, () => text);
      return EXIT.ok;
    }
    const command = line.command;
    let opening: Promise<Session> | null = null;
    const ctx: CliContext = {
      out,
      env: options.env,
      globals: line.globals,
      signal: options.signal,
      session: () =>
        (opening ??= openSession(line.globals, options.env, out, {
          autoDownload: command.followsAutoDownload ? 'setting' : 'off',
        }).then((opened) => {
          session = opened;
          return opened;
        })),
    };
    await command.run(ctx, line.input);
    return EXIT.ok;
  } catch (error) {
    return report(out, error, options.env);
  } finally {
    if (session) await (session as Session).close().catch(() => {});
  }
}

function report(out: Output, error: unknown, env: NodeJS.ProcessEnv): ExitCode {
  let info: ErrorInfo;
  let code: ExitCode;
  if (error instanceof CliError) {
    info = error.info;
    code = error.exitCode;
  } else if (error instanceof AppError) {
    info = error.info;
    code = exitCodeFor(info);
  } else {
    info = { code: 'internal', message: error instanceof Error ? error.message : String(error) };
    code = EXIT.failure;
  }
  // Errors from the core are redacted already; this covers anything else that passed near the key.
  const clean = (text: string) => redactSecrets(text, [env.ATELIER_API_KEY?.trim()]);
  info = {
    ...info,
    message: clean(info.message),
    ...(info.fields ? { fields: info.fields.map((f) => ({ ...f, message: clean(f.message) })) } : {}),
  };
  out.failure(info, errorLines(info, code));
  return code;
}

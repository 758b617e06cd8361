// The app's logger: leveled lines (JSON or plain) to a size-rotating file in the data folder and
// optionally stderr, with every message and field passed through redaction first.
import { join } from 'node:path';
import { redact, redactValue } from './redact.ts';
import { RotatingFile } from './rotating-file.ts';

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * `detail` may be an Error (logged as name/message/code/stack), a plain object of fields, or
 * anything else (logged as `detail`). Compatible with `(message, error?) => void` callers.
 */
export type LogMethod = (message: string, detail?: unknown) => void;

export interface Logger {
  debug: LogMethod;
  info: LogMethod;
  warn: LogMethod;
  error: LogMethod;
  /** Same sinks and secrets, with `scope` on every line (e.g. `api`, `jobs`). */
  child(scope: string): Logger;
  /** Flushes nothing (writes are synchronous) but releases the file. Later lines are dropped. */
  close(): void;
}

export interface LoggerOptions {
  /** Log file path, e.g. `<dataDir>/logs/atelier.log`. No file: stderr only (if enabled). */
  file?: string;
  level?: LogLevel;
  /** Read on every line, so a key entered later is redacted too. */
  secrets?: () => readonly (string | null | undefined)[];
  format?: 'json' | 'plain';
  /** Also write to stderr. Default: true when there is no file, false otherwise. */
  stderr?: boolean;
  /** Default 5 MB. */
  maxBytes?: number;
  /** Rotated files kept next to the live one. Default 3. */
  keep?: number;
  /** For tests. */
  now?: () => Date;
}

export const LOG_FILE_DEFAULTS = { maxBytes: 5 * 1024 * 1024, keep: 3 } as const;

/** Where the app's log lives inside its data folder (Help → Open logs folder opens its directory). */
export function logFilePath(dataDir: string): string {
  return join(dataDir, 'logs', 'atelier.log');
}

interface Sinks {
  file: RotatingFile | null;
  stderr: boolean;
  closed: boolean;
  fileFailed: boolean;
}

function fieldsOf(detail: unknown): Record<string, unknown> {
  if (detail === undefined) return {};
  if (detail instanceof Error) return { error: detail };
  if (detail !== null && typeof detail === 'object' && !Array.isArray(detail)) return detail as Record<string, unknown>;
  return { detail };
}

function plainLine(
  time: string,
  level: LogLevel,
  scope: string | undefined,
  message: string,
  fields: Record<string, unknown>,
): string {
  const head = `${time} ${level.toUpperCase().padEnd(5)} ${scope ? `[${scope}] ` : ''}${message}`;
  const { error, ...rest } = fields;
  const restText = Object.keys(rest).length > 0 ? ` ${JSON.stringify(rest)}` : '';
  let errorText = '';
  if (error && typeof error === 'object') {
    const e = error as { name?: unknown; message?: unknown; stack?: unknown };
    errorText = typeof e.stack === 'string' ? `\n  ${e.stack.replace(/\n/g, '\n  ')}` : ` ${JSON.stringify(error)}`;
  }
  return `${head}${restText}${errorText}\n`;
}

function openLogFile(options: LoggerOptions): RotatingFile | null {
  try {
    return new RotatingFile({
      path: options.file!,
      maxBytes: options.maxBytes ?? LOG_FILE_DEFAULTS.maxBytes,
      keep: options.keep ?? LOG_FILE_DEFAULTS.keep,
    });
  } catch {
    return null;
  }
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const minLevel = LOG_LEVELS.indexOf(options.level ?? 'info');
  const secrets = options.secrets ?? (() => []);
  const now = options.now ?? (() => new Date());
  const format = options.format ?? 'json';
  const sinks: Sinks = {
    file: options.file ? openLogFile(options) : null,
    stderr: options.stderr ?? !options.file,
    closed: false,
    fileFailed: false,
  };
  // A log file that cannot even be opened (a read-only data folder) must not stop the app: its
  // lines go to stderr instead, and whoever opens the data folder says why in words.
  if (options.file && !sinks.file) sinks.fileFailed = true;

  function emit(level: LogLevel, scope: string | undefined, message: string, detail: unknown): void {
    if (sinks.closed || LOG_LEVELS.indexOf(level) < minLevel) return;
    // Logging must never take the app down: any failure here degrades to stderr or silence.
    try {
      const known = secrets();
      const safeMessage = redact(message, known);
      const fields = redactValue(fieldsOf(detail), known) as Record<string, unknown>;
      const time = now().toISOString();
      const line =
        format === 'json'
          ? `${JSON.stringify({ time, level, ...(scope ? { scope } : {}), msg: safeMessage, ...fields })}\n`
          : plainLine(time, level, scope, safeMessage, fields);
      if (sinks.file && !sinks.fileFailed) {
        try {
          sinks.file.write(line);
        } catch (error) {
          sinks.fileFailed = true;
          process.stderr.write(`logger: cannot write ${sinks.file.path}: ${redact(String(error), known)}\n`);
        }
      }
      if (sinks.stderr || sinks.fileFailed) process.stderr.write(line);
    } catch {
      // nothing sensible left to do
    }
  }

  function make(scope: string | undefined): Logger {
    return {
      debug: (message, detail) => emit('debug', scope, message, detail),
      info: (message, detail) => emit('info', scope, message, detail),
      warn: (message, detail) => emit('warn', scope, message, detail),
      error: (message, detail) => emit('error', scope, message, detail),
      child: (child) => make(scope ? `${scope}.${child}` : child),
      close() {
        if (sinks.closed) return;
        sinks.closed = true;
        sinks.file?.close();
      },
    };
  }
  return make(undefined);
}

/** A logger that drops everything: for code paths and tests that do not care. */
export function silentLogger(): Logger {
  const logger: Logger = {
    debug: () => {},
    info: () => {},
    warn: () => {},
    error: () => {},
    child: () => logger,
    close: () => {},
  };
  return logger;
}

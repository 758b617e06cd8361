// Public surface of core/log: the redacting, rotating logger.
export { createLogger, logFilePath, silentLogger, LOG_FILE_DEFAULTS, LOG_LEVELS } from './logger.ts';
export type { LogLevel, LogMethod, Logger, LoggerOptions } from './logger.ts';
export { redact, redactError, redactValue, REDACTED } from './redact.ts';

// Tries a candidate key against the service before it is saved, and turns whatever went wrong
// into an error the user can act on. The key never appears in what comes out.
import { AppError } from '../../contract/errors.ts';
import { PLACEHOLDER_BASE_URL } from '../../contract/ipc/settings.ts';
import { redactSecrets } from '../secrets/redact.ts';
import type { AccountLogger } from './types.ts';

export interface VerifyKeyOptions {
  baseUrl: string;
  key: string;
  /** One cheap authenticated request with this key, e.g. GET /models. */
  checkKey(candidate: { baseUrl: string; key: string }): Promise<unknown>;
  logger: AccountLogger;
}

export async function verifyKey(options: VerifyKeyOptions): Promise<void> {
  const { baseUrl, key } = options;
  if (baseUrl === PLACEHOLDER_BASE_URL) {
    throw new AppError({
      code: 'invalid_argument',
      field: 'baseUrl',
      message: 'Set the service address in Settings before adding a key.',
    });
  }
  try {
    await options.checkKey({ baseUrl, key });
  } catch (error) {
    throw verificationError(error, baseUrl, key, options.logger);
  }
}

function verificationError(error: unknown, baseUrl: string, key: string, logger: AccountLogger): AppError {
  if (!(error instanceof AppError)) {
    logger.warn(`Checking a key against ${baseUrl} failed unexpectedly`, redactSecrets(String(error), [key]));
    return new AppError({ code: 'internal', message: 'The key could not be checked. Details are in the log.' });
  }
  const { code, httpStatus } = error.info;
  const status = httpStatus === undefined ? {} : { httpStatus };
  if (code === 'auth') {
    return new AppError({
      code: 'auth',
      field: 'key',
      message: 'The service refused this key. Check that it was copied whole and is still active.',
      ...status,
    });
  }
  if (code === 'network' || code === 'offline') {
    return new AppError({
      code: 'network',
      message: `Could not reach the service at ${baseUrl}. Check the address in Settings and your connection.`,
    });
  }
  if (code === 'not_found' || code === 'malformed_response') {
    return new AppError({
      code,
      field: 'baseUrl',
      message: `${baseUrl} did not answer like the media service. Check the address in Settings.`,
      ...status,
    });
  }
  // rate_limited, server and the rest keep their code; the message is the client's, redacted again.
  return new AppError({ ...error.info, message: redactSecrets(error.info.message, [key]) });
}

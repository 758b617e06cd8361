// Channels that choose the account: the API key (write-only from the renderer), demo mode.
// Every result is an AccountInfo: the renderer learns whether a key exists and where it is
// kept, never the key itself.
import * as v from 'valibot';
import { invoke, type } from './channel.ts';
import type { AccountInfo } from './app.ts';
import { settingsFieldSchemas } from './settings.ts';

export const API_KEY_MAX_LENGTH = 512;

/**
 * An API key as typed or pasted by the user. Every message is fixed text: valibot's default
 * messages quote the received value, and the value here is a secret.
 */
export const apiKeySchema = v.pipe(
  v.string('The API key must be text.'),
  v.trim(),
  v.nonEmpty('Enter an API key.'),
  v.maxLength(API_KEY_MAX_LENGTH, `An API key is at most ${API_KEY_MAX_LENGTH} characters long.`),
  // It travels in an HTTP header: visible ASCII only, which also rules out spaces inside.
  v.regex(/^[\x21-\x7e]+$/, 'An API key has no spaces or special characters inside; check what was pasted.'),
);

export const accountInvoke = {
  'account:status': invoke(v.undefined(), type<AccountInfo>()),
  /**
   * Saves (or replaces) the key and switches to the service account. With `verify` (the
   * default) the key is first tried against the service and refused with 'auth' if rejected.
   * `baseUrl` changes the service address: the only way to, so a key is never sent to an
   * address it was not entered for.
   */
  'account:set-key': invoke(
    v.strictObject(
      {
        key: apiKeySchema,
        verify: v.optional(v.boolean('verify must be true or false.'), true),
        baseUrl: v.optional(settingsFieldSchemas.baseUrl),
      },
      'Send the API key as text, and optionally verify as true or false and baseUrl as an address.',
    ),
    type<AccountInfo>(),
  ),
  'account:remove-key': invoke(v.undefined(), type<AccountInfo>()),
  /** Starts the in-process emulator and switches to its own demo account. */
  'account:use-demo': invoke(v.undefined(), type<AccountInfo>()),
  /** Back to the service account if a key is configured, otherwise to no account. */
  'account:leave-demo': invoke(v.undefined(), type<AccountInfo>()),
  /**
   * After the saved account's database could not be opened (AccountInfo.openProblem): sets that
   * file aside, kept next to it under a dated name, and opens a fresh one. Refused otherwise.
   */
  'account:start-fresh': invoke(v.undefined(), type<AccountInfo>()),
};

// 'account:changed' is declared with AccountInfo in ./app.ts.
export const accountEvents = {};

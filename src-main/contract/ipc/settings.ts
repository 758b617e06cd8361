// Channels and field rules of the user's settings. The same field schemas validate the
// renderer's form (live), the settings:update channel and values read back from disk.
import * as v from 'valibot';
import { invoke, type } from './channel.ts';

/** The spec names no base address; this placeholder never resolves, so nothing is sent by accident. */
export const PLACEHOLDER_BASE_URL = 'https://api.example.invalid/v1';

export const DOWNLOAD_CONCURRENCY = { min: 1, max: 8, default: 3 } as const;
export const THEMES = ['system', 'light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** https anywhere; plain http only on this machine (a local emulator), since the key travels in a header. */
export function baseUrlProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'The service address must be a full URL such as https://api.example.com/v1.';
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname))) {
    return 'The service address must start with https:// (plain http is allowed only for 127.0.0.1 or localhost).';
  }
  if (url.username || url.password) return 'The service address must not contain a user name or password.';
  if (url.search || url.hash) return 'The service address must not contain ? or # parts.';
  return null;
}

/** Trailing slashes dropped so the same service never yields two accounts. */
const normalizeBaseUrl = (value: string): string => {
  const url = new URL(value);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
};

const absolutePath = /^(\/|[A-Za-z]:[\\/]|\\\\[^\\])/;

const bool = (name: string) => v.boolean(`${name} must be true or false.`);

/** One schema per user-editable setting; core adds the ones only main writes. */
export const settingsFieldSchemas = {
  baseUrl: v.pipe(
    v.string('The service address must be text.'),
    v.trim(),
    v.maxLength(2048, 'The service address is too long.'),
    v.check(
      (value) => baseUrlProblem(value) === null,
      (issue) => baseUrlProblem(String(issue.input)) ?? 'Invalid address.',
    ),
    v.transform(normalizeBaseUrl),
  ),
  libraryDir: v.pipe(
    v.string('The library folder must be text.'),
    v.trim(),
    v.nonEmpty('Choose a library folder.'),
    v.maxLength(1024, 'The library folder path is too long.'),
    v.check((value) => !value.includes('\0'), 'The library folder path contains an invalid character.'),
    v.regex(absolutePath, 'The library folder must be a full path (for example /home/me/Pictures/Atelier).'),
  ),
  autoDownload: bool('Auto-download'),
  notifications: bool('Notifications'),
  downloadConcurrency: v.pipe(
    v.number('Parallel downloads must be a number.'),
    v.integer('Parallel downloads must be a whole number.'),
    v.minValue(
      DOWNLOAD_CONCURRENCY.min,
      `Parallel downloads must be between ${DOWNLOAD_CONCURRENCY.min} and ${DOWNLOAD_CONCURRENCY.max}.`,
    ),
    v.maxValue(
      DOWNLOAD_CONCURRENCY.max,
      `Parallel downloads must be between ${DOWNLOAD_CONCURRENCY.min} and ${DOWNLOAD_CONCURRENCY.max}.`,
    ),
  ),
  theme: v.picklist(THEMES, 'The theme must be system, light or dark.'),
  closeToTray: bool('Keep running in the tray'),
  /** The one-time explanation shown the first time closing the window kept the app running. */
  closeToTrayExplained: bool('closeToTrayExplained'),
  /** The user accepted that the key is saved unencrypted where the OS offers no safe storage. */
  allowWeakKeyStorage: bool('Saving the key without encryption'),
  pollingPaused: bool('Pause checking jobs'),
  /** Desktop app only: start Atelier (in the tray where there is one) when the user logs in. */
  openAtLogin: bool('Open at login'),
};

export type SettingsField = keyof typeof settingsFieldSchemas;

/** What the renderer sees and may change. */
export type SettingsInfo = { [K in SettingsField]: v.InferOutput<(typeof settingsFieldSchemas)[K]> };

/**
 * Settings a renderer may not change through settings:update, each with the trusted way instead:
 * the address travels with the key it belongs to, and the library folder is never a bare string
 * from a renderer (an XSS could aim the media route and "open" at any folder).
 */
const notThroughUpdate = {
  baseUrl: v.never(
    'The service address changes together with the API key: enter the key again with the new address (account:set-key).',
  ),
  libraryDir: v.never('The library folder changes with library:move or library:use-folder, not settings:update.'),
};

export const settingsUpdateSchema = v.partial(
  v.strictObject({ ...settingsFieldSchemas, ...notThroughUpdate }, 'Only known settings can be changed.'),
);
export type SettingsUpdate = v.InferInput<typeof settingsUpdateSchema>;

export const settingsInvoke = {
  'settings:get': invoke(v.undefined(), type<SettingsInfo>()),
  /** Changes only the fields given; refused with 'invalid_argument' naming the first bad field. */
  'settings:update': invoke(settingsUpdateSchema, type<SettingsInfo>()),
};

export const settingsEvents = {
  'settings:changed': type<SettingsInfo>(),
};

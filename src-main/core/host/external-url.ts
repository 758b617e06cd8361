// Which links may leave the app for the system browser: https only, no credentials, a sane
// length. Used by the shell's window-open handler and the shell:open-external channel.

const MAX_EXTERNAL_URL_LENGTH = 2048;

/** null when the URL may be opened externally, otherwise why not (shown to the user). */
export function externalUrlProblem(value: unknown): string | null {
  if (typeof value !== 'string' || value.length === 0) return 'The link is empty.';
  if (value.length > MAX_EXTERNAL_URL_LENGTH) return 'The link is too long to open.';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'The link is not a valid address.';
  }
  if (url.protocol !== 'https:') return 'Only https:// links are opened in your browser.';
  if (url.username || url.password) return 'Links that carry a user name or password are not opened.';
  if (!url.hostname) return 'The link has no host.';
  return null;
}

export const isSafeExternalUrl = (value: unknown): value is string => externalUrlProblem(value) === null;

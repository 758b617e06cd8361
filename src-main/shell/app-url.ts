// The app's own origin (atelier://app), the one test for "is this our page?" and which built
// renderer file an app URL names. Pure, so the policies built on them are tested with the real rules.
import { join, normalize, sep } from 'node:path';

export const APP_SCHEME = 'atelier';
export const APP_HOST = 'app';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;

export function isAppUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === `${APP_SCHEME}:` && parsed.host === APP_HOST && !parsed.username && !parsed.password;
  } catch {
    return false;
  }
}

/** The renderer file a request names, or null when it is not one of ours. */
export function rendererFileFor(rendererDir: string, requestUrl: string): string | null {
  let url: URL;
  let pathname: string;
  try {
    url = new URL(requestUrl);
    pathname = decodeURIComponent(url.pathname);
  } catch {
    return null;
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST || pathname.includes('\0')) return null;
  const relative = normalize(pathname === '/' ? '/index.html' : pathname).replace(/^([/\\])+/, '');
  const file = join(rendererDir, relative);
  return file.startsWith(rendererDir + sep) ? file : null;
}

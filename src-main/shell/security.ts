// App-wide hardening beyond the window's options: every web contents refuses webviews, new
// windows and navigation away; the session denies permissions and adds the CSP to documents.
import { shell, type Session, type WebContents } from 'electron';
import { RENDERER_SECURITY_HEADERS } from '../contract/csp.ts';
import { isAppUrl } from './app-url.ts';
import { navigationDecision, windowOpenDecision } from './navigation-policy.ts';
import { permissionAllowed } from './permission-policy.ts';

export interface HardeningOptions {
  /** Told about everything refused (for the log). */
  onRefused(what: string, detail: string): void;
}

const shortUrl = (url: string): string => url.slice(0, 200);

/** Header names we set, lower-cased: a page's own (weaker) values are replaced, not merged. */
const OURS = new Set(Object.keys(RENDERER_SECURITY_HEADERS).map((name) => name.toLowerCase()));

export function hardenWebContents(contents: WebContents, options: HardeningOptions): void {
  contents.on('will-attach-webview', (event) => {
    event.preventDefault();
    options.onRefused('webview', shortUrl(contents.getURL()));
  });
  contents.setWindowOpenHandler(({ url }) => {
    if (windowOpenDecision(url) === 'open-externally') void shell.openExternal(url);
    else options.onRefused('window.open', shortUrl(url));
    return { action: 'deny' };
  });
  contents.on('will-navigate', (event, url) => {
    const decision = navigationDecision(url, isAppUrl);
    if (decision === 'allow') return;
    event.preventDefault();
    // A plain link to the web still works for the user: it opens in their browser.
    if (decision === 'open-externally') void shell.openExternal(url);
    else options.onRefused('navigation', shortUrl(url));
  });
  contents.on('will-frame-navigate', (event) => {
    if (event.isMainFrame || isAppUrl(event.url)) return;
    event.preventDefault();
    options.onRefused('frame navigation', shortUrl(event.url));
  });
  contents.on('will-redirect', (event, url) => {
    if (isAppUrl(url)) return;
    event.preventDefault();
    options.onRefused('redirect', shortUrl(url));
  });
}

export function hardenSession(session: Session, options: HardeningOptions): void {
  session.setPermissionRequestHandler((contents, permission, callback, details) => {
    const allowed = permissionAllowed(permission, details.requestingUrl, isAppUrl);
    if (!allowed) options.onRefused('permission request', `${permission} from ${shortUrl(details.requestingUrl)}`);
    callback(allowed);
  });
  session.setPermissionCheckHandler((_contents, permission, requestingOrigin, details) =>
    permissionAllowed(permission, details.requestingUrl ?? requestingOrigin, isAppUrl),
  );
  // USB/HID/serial devices: never (screen capture already fails without a handler).
  session.setDevicePermissionHandler(() => false);
  // Documents from anywhere (should one ever load) get the app's CSP and headers too.
  session.webRequest.onHeadersReceived((details, callback) => {
    if (details.resourceType !== 'mainFrame' && details.resourceType !== 'subFrame') {
      callback({});
      return;
    }
    const responseHeaders: Record<string, string[]> = { ...details.responseHeaders };
    for (const name of Object.keys(responseHeaders)) {
      if (OURS.has(name.toLowerCase())) delete responseHeaders[name];
    }
    for (const [name, value] of Object.entries(RENDERER_SECURITY_HEADERS)) responseHeaders[name] = [value];
    callback({ responseHeaders });
  });
}

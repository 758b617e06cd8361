// Keeps the app page where it is: a link or script that would load another site instead hands
// the URL to `onExternal` (which opens https links in the system browser). The Electron shell
// also blocks this in main; browser mode has only this, installed by the renderer at start-up.
// Works on the Navigation API (Chromium), given as a parameter so it is tested without a DOM.

export interface NavigateEventLike {
  readonly destination: { readonly url: string };
  readonly cancelable: boolean;
  readonly hashChange: boolean;
  readonly downloadRequest: string | null;
  preventDefault(): void;
}

export interface NavigationLike {
  addEventListener(type: 'navigate', listener: (event: NavigateEventLike) => void): void;
  removeEventListener(type: 'navigate', listener: (event: NavigateEventLike) => void): void;
}

/** Returns the uninstall function. `appOrigin` is the page's own origin (location.origin). */
export function installNavigationGuard(
  navigation: NavigationLike,
  appOrigin: string,
  onExternal: (url: string) => void,
): () => void {
  const listener = (event: NavigateEventLike): void => {
    if (event.hashChange || event.downloadRequest !== null) return;
    let origin: string;
    try {
      origin = new URL(event.destination.url).origin;
    } catch {
      origin = '';
    }
    if (origin === appOrigin || !event.cancelable) return;
    event.preventDefault();
    onExternal(event.destination.url);
  };
  navigation.addEventListener('navigate', listener);
  return () => navigation.removeEventListener('navigate', listener);
}

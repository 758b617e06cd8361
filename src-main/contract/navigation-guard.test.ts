import { describe, expect, it } from 'vitest';
import { installNavigationGuard, type NavigateEventLike, type NavigationLike } from './navigation-guard.ts';

function fakeNavigation() {
  const listeners = new Set<(event: NavigateEventLike) => void>();
  const navigation: NavigationLike = {
    addEventListener: (_type, listener) => void listeners.add(listener),
    removeEventListener: (_type, listener) => void listeners.delete(listener),
  };
  /** Fires a navigation; true when it went ahead (nobody prevented it). */
  const navigate = (url: string, extra: Partial<NavigateEventLike> = {}): boolean => {
    let prevented = false;
    const event: NavigateEventLike = {
      destination: { url },
      cancelable: true,
      hashChange: false,
      downloadRequest: null,
      preventDefault: () => void (prevented = true),
      ...extra,
    };
    for (const listener of listeners) listener(event);
    return !prevented;
  };
  return { navigation, navigate, listeners };
}

describe('installNavigationGuard', () => {
  const origin = 'http://127.0.0.1:5000';

  it('keeps navigations inside the app and hands the rest to onExternal', () => {
    const { navigation, navigate } = fakeNavigation();
    const external: string[] = [];
    installNavigationGuard(navigation, origin, (url) => external.push(url));
    expect(navigate(`${origin}/library`)).toBe(true);
    expect(navigate('https://evil.example/phish')).toBe(false);
    expect(navigate('http://127.0.0.1:5001/')).toBe(false);
    expect(navigate('javascript:alert(1)')).toBe(false);
    expect(external).toEqual(['https://evil.example/phish', 'http://127.0.0.1:5001/', 'javascript:alert(1)']);
  });

  it('leaves hash changes, downloads and navigations it cannot cancel (browser back/forward) alone', () => {
    const { navigation, navigate } = fakeNavigation();
    const external: string[] = [];
    installNavigationGuard(navigation, origin, (url) => external.push(url));
    expect(navigate('https://x.example/', { cancelable: false })).toBe(true);
    expect(navigate(`${origin}/#jobs`, { hashChange: true })).toBe(true);
    expect(navigate('blob:x', { downloadRequest: 'a.png' })).toBe(true);
    expect(external).toEqual([]);
  });

  it('can be uninstalled', () => {
    const { navigation, navigate, listeners } = fakeNavigation();
    const uninstall = installNavigationGuard(navigation, origin, () => {});
    uninstall();
    expect(listeners.size).toBe(0);
    expect(navigate('https://evil.example/')).toBe(true);
  });
});

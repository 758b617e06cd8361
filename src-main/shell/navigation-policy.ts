// What happens when the window tries to leave the app: in-app URLs load, https links open in
// the system browser, everything else is dropped. The window itself never navigates away.
import { isSafeExternalUrl } from '../core/host/external-url.ts';

export type NavigationDecision = 'allow' | 'open-externally' | 'deny';

export function navigationDecision(url: string, isAppUrl: (url: string) => boolean): NavigationDecision {
  if (isAppUrl(url)) return 'allow';
  return isSafeExternalUrl(url) ? 'open-externally' : 'deny';
}

/** New windows are never created; an https target goes to the system browser instead. */
export function windowOpenDecision(url: string): Exclude<NavigationDecision, 'allow'> {
  return isSafeExternalUrl(url) ? 'open-externally' : 'deny';
}

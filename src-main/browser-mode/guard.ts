// Who may talk to browser mode: 127.0.0.1 only, the right Host (DNS-rebinding), the right
// Origin for the WebSocket, and the session token (URL once, then an HttpOnly cookie).
// Cookies ignore ports and SameSite treats every 127.0.0.1 port as the same site, so a page
// served by another local program gets our cookie sent along: the Origin check on the
// WebSocket and CORP on every response are what keep such a page out.
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const TOKEN_COOKIE_PREFIX = 'atelier_token_';

/** One cookie per port, so two browser-mode instances (e.g. app and e2e) do not overwrite each other's. */
export const tokenCookieName = (port: number): string => `${TOKEN_COOKIE_PREFIX}${port}`;

export interface Guard {
  port: number;
  token: string;
}

export function allowedHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`];
}

export function hostAllowed(req: IncomingMessage, guard: Guard): boolean {
  return allowedHosts(guard.port).includes(req.headers.host ?? '');
}

/** Browsers send Origin on WebSocket upgrades; a page from any other origin is refused. */
export function originAllowed(req: IncomingMessage, guard: Guard): boolean {
  const origin = req.headers.origin;
  return origin !== undefined && allowedHosts(guard.port).some((h) => origin === `http://${h}`);
}

export function tokenMatches(candidate: string | undefined | null, guard: Guard): boolean {
  if (!candidate) return false;
  const a = Buffer.from(candidate);
  const b = Buffer.from(guard.token);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function cookieToken(req: IncomingMessage, guard: Guard): string | undefined {
  const header = req.headers.cookie ?? '';
  const wanted = tokenCookieName(guard.port);
  for (const part of header.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === wanted) return rest.join('=');
  }
  return undefined;
}

export function tokenCookie(guard: Guard): string {
  return `${tokenCookieName(guard.port)}=${guard.token}; HttpOnly; SameSite=Strict; Path=/`;
}

/**
 * Sent with every answer, refusals included: no other origin may embed or read our responses
 * (CORP), open us in a frame, or keep a handle on our window (COOP).
 */
export const RESPONSE_HARDENING_HEADERS: Readonly<Record<string, string>> = {
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

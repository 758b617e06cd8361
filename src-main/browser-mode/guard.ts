// Who may talk to browser mode: 127.0.0.1 only, the right Host (DNS-rebinding), the right
// Origin for the WebSocket, and the session token (URL once, then an HttpOnly cookie).
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const TOKEN_COOKIE = 'atelier_token';

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

export function cookieToken(req: IncomingMessage): string | undefined {
  const header = req.headers.cookie ?? '';
  for (const part of header.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === TOKEN_COOKIE) return rest.join('=');
  }
  return undefined;
}

export function tokenCookie(token: string): string {
  return `${TOKEN_COOKIE}=${token}; HttpOnly; SameSite=Strict; Path=/`;
}

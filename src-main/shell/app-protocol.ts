// The app's two custom protocols (never file://): atelier://app serves the built renderer with
// the strict CSP; atelier-media://library serves library files through the core.
import { net, protocol, type Session } from 'electron';
import { pathToFileURL } from 'node:url';
import { RENDERER_SECURITY_HEADERS } from '../contract/csp.ts';
import { APP_ORIGIN, APP_SCHEME, rendererFileFor } from './app-url.ts';
import { LOAD_PROBLEM_URL } from './load-problem-page.ts';
import { createMediaHandler, MEDIA_SCHEME } from './media-handler.ts';
import type { MediaReply, MediaRequest } from '../core/library/library-host.ts';

/** Must run before app 'ready'. Neither scheme bypasses the CSP. */
export function registerSchemes(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true } },
    // stream: seeking in <video>; corsEnabled + supportFetchAPI: hls.js reads offline playlists by XHR.
    {
      scheme: MEDIA_SCHEME,
      privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true, stream: true },
    },
  ]);
}

const notFound = (): Response => new Response('Not found', { status: 404 });

const withSecurityHeaders = (init: HeadersInit = {}): Headers => {
  const headers = new Headers(init);
  for (const [name, value] of Object.entries(RENDERER_SECURITY_HEADERS)) headers.set(name, value);
  return headers;
};

/** The built renderer from `rendererDir`, and the load-problem page (made in memory) at its own URL. */
export function serveRenderer(session: Session, rendererDir: string, loadProblemPage: () => string): void {
  session.protocol.handle(APP_SCHEME, async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD')
      return new Response('Method not allowed', { status: 405 });
    if (request.url === LOAD_PROBLEM_URL) {
      const headers = withSecurityHeaders({ 'Content-Type': 'text/html; charset=utf-8' });
      return new Response(loadProblemPage(), { status: 200, headers });
    }
    const file = rendererFileFor(rendererDir, request.url);
    if (!file) return notFound();
    const response = await net.fetch(pathToFileURL(file).toString());
    return new Response(response.body, { status: response.status, headers: withSecurityHeaders(response.headers) });
  });
}

export function serveMedia(
  session: Session,
  serve: (request: MediaRequest) => Promise<MediaReply>,
  onError: (error: unknown) => void,
): void {
  const handle = createMediaHandler(serve, onError);
  session.protocol.handle(MEDIA_SCHEME, async (request) => {
    const response = await handle(request);
    // Only the app page may read media by fetch/XHR (hls.js); <img>/<video> need no CORS.
    response.headers.set('Access-Control-Allow-Origin', APP_ORIGIN);
    return response;
  });
}

// The atelier-media: protocol's request handler: `atelier-media://library/<library-relative path>`
// answered from the library folder by the core (containment, Range, HEAD). Electron-free.
import { decodeMediaPath, serveLocalMedia, toWebResponse } from '../core/library/media-serving.ts';

export const MEDIA_SCHEME = 'atelier-media';
export const MEDIA_HOST = 'library';

/** The library-relative path a media URL names, or null when it is not one of ours. */
export function mediaPathFromUrl(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== `${MEDIA_SCHEME}:` || parsed.host !== MEDIA_HOST) return null;
  if (parsed.username || parsed.password || parsed.port) return null;
  const path = decodeMediaPath(parsed.pathname.replace(/^\/+/, ''));
  return path === null || path === '' ? null : path;
}

const notFound = (): Response =>
  new Response('Not found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });

export function createMediaHandler(libraryDir: () => string, onError: (error: unknown) => void = () => {}) {
  return async (request: Request): Promise<Response> => {
    const path = mediaPathFromUrl(request.url);
    if (path === null) return notFound();
    try {
      const reply = await serveLocalMedia(libraryDir(), {
        path,
        rangeHeader: request.headers.get('range'),
        method: request.method,
      });
      return toWebResponse(reply);
    } catch (error) {
      onError(error);
      return new Response('Could not read the file', {
        status: 500,
        headers: { 'Content-Type': 'text/plain; charset=utf-8' },
      });
    }
  };
}

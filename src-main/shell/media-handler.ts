// The atelier-media: protocol's request handler: `atelier-media://library/<library-relative path>`
// answered from the library folder by the core (containment, Range, HEAD). Electron-free.
import {
  MEDIA_SCHEME,
  mediaPathFromProtocolUrl,
  serveLocalMedia,
  toWebResponse,
} from '../core/library/media-serving.ts';

export { MEDIA_SCHEME };

const notFound = (): Response =>
  new Response('Not found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });

export function createMediaHandler(libraryDir: () => string, onError: (error: unknown) => void = () => {}) {
  return async (request: Request): Promise<Response> => {
    const path = mediaPathFromProtocolUrl(request.url);
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

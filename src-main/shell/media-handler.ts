// The atelier-media: protocol's request handler: `atelier-media://library/<library-relative path>`
// answered by the core (Core.serveMedia: library files with containment, Range, HEAD, and the
// poster links of videos not downloaded yet), like browser mode's /media/ route. Electron-free.
import {
  MEDIA_SCHEME,
  mediaPathFromProtocolUrl,
  toWebResponse,
  type MediaReply,
  type MediaRequest,
} from '../core/library/library-host.ts';

export { MEDIA_SCHEME };

const notFound = (): Response =>
  new Response('Not found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });

export function createMediaHandler(
  serve: (request: MediaRequest) => Promise<MediaReply>,
  onError: (error: unknown) => void = () => {},
) {
  return async (request: Request): Promise<Response> => {
    const path = mediaPathFromProtocolUrl(request.url);
    if (path === null) return notFound();
    try {
      const reply = await serve({
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

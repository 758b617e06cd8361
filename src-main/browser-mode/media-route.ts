// Browser mode's GET/HEAD /media/<library-relative path>: library files (and thumbnails) for the
// renderer, behind the same token guard as everything else, with Range support for players.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { decodeMediaPath, type MediaReply, type MediaRequest } from '../core/library/library-host.ts';

export const MEDIA_ROUTE_PREFIX = '/media/';

export function mediaRoute(serve: (request: MediaRequest) => Promise<MediaReply>) {
  return async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> => {
    if (!url.pathname.startsWith(MEDIA_ROUTE_PREFIX)) return false;
    const path = decodeMediaPath(url.pathname.slice(MEDIA_ROUTE_PREFIX.length));
    const reply: MediaReply =
      path === null
        ? { status: 400, headers: { 'Content-Type': 'text/plain; charset=utf-8' }, body: null }
        : await serve({ path, rangeHeader: req.headers.range ?? null, method: req.method ?? 'GET' });
    res.writeHead(reply.status, reply.headers);
    if (!reply.body || req.method === 'HEAD') {
      reply.body?.destroy();
      res.end();
      return true;
    }
    // A player seeking away closes the connection: that ends the file stream too, quietly.
    await pipeline(reply.body, res).catch(() => undefined);
    return true;
  };
}

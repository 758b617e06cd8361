// Media outside the API: signed image/video/HLS URLs (no bearer) and a deterministic blob of any size.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import sharp from 'sharp';
import type { EmulatorContext } from '../context.ts';
import { invalidField, notFound } from '../envelope.ts';
import { findPublicVideo } from '../public-media.ts';
import type { ImageRecord, VideoRecord } from '../records.ts';
import { mediaCutOf } from '../request-state.ts';
import { imageExists, videoExists } from '../views.ts';
import { blobEntity, MAX_BLOB_BYTES } from './blob.ts';
import { sendMedia, type MediaEntity } from './conditional-range.ts';
import { bufferEntity } from './fixtures.ts';

const IMAGE_TYPES: Record<string, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  heic: 'image/heic',
};
const METHODS: ('GET' | 'HEAD')[] = ['GET', 'HEAD'];
/**
 * Image bytes never change for a given id, so a fixed past date is a truthful Last-Modified and, unlike the
 * virtual creation time, never lies in the future of the Date header when the clock has been advanced.
 */
const IMAGE_LAST_MODIFIED = new Date(Date.UTC(2024, 0, 1));

/** `img_x.png` → `img_x`. */
const stem = (file: string): string => file.replace(/\.[^.]*$/, '');

async function imageBytes(ctx: EmulatorContext, image: ImageRecord): Promise<Buffer> {
  const source = image.source;
  switch (source.kind) {
    case 'upload': {
      const bytes = await ctx.uploads.get(image.id);
      if (!bytes) throw notFound('Image file', image.id);
      return bytes;
    }
    case 'render':
      return ctx.renderer.render(source);
    case 'upscale': {
      const from = ctx.store.images.get(source.fromImageId);
      const original = from ? await imageBytes(ctx, from).catch(() => undefined) : undefined;
      if (original) {
        try {
          const resized = sharp(original).resize(source.width, source.height, { fit: 'fill' });
          return await (source.format === 'png' ? resized.png() : resized.jpeg({ quality: 88 })).toBuffer();
        } catch {
          // an undecodable original (e.g. HEIC without a decoder) falls back to a rendered stand-in
        }
      }
      return ctx.renderer.render({
        width: source.width,
        height: source.height,
        format: source.format,
        prompt: `Upscaled image ${image.id}`,
        seed: 0,
        caption: `upscaled · ${source.width}×${source.height}`,
      });
    }
  }
}

function findVideo(ctx: EmulatorContext, id: string, now: number): VideoRecord | undefined {
  const own = ctx.store.videos.get(id);
  if (own && videoExists(own, now)) return own;
  return findPublicVideo(id);
}

export function registerMediaRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  const send = (
    request: FastifyRequest,
    reply: FastifyReply,
    entity: MediaEntity,
    downloadName?: string,
  ): FastifyReply => {
    const cut = mediaCutOf(request);
    return sendMedia(request, reply, entity, {
      ...(cut === undefined ? {} : { cutAfterBytes: cut }),
      ...(downloadName ? { downloadName } : {}),
    });
  };
  /** A wrong token answers exactly like a missing file, so tokens cannot be probed. */
  const verified = (kind: string, id: string, token: string): void => {
    if (!ctx.signer.verify(`${kind}/${id}`, token)) throw notFound('Media', `${kind}/${id}`);
  };

  app.route({
    method: METHODS,
    url: '/media/:token/image/:file',
    handler: async (request, reply) => {
      const { token, file } = request.params as { token: string; file: string };
      const id = stem(file);
      verified('image', id, token);
      const image = ctx.store.images.get(id);
      if (!image || !imageExists(image, ctx.clock.now())) throw notFound('Image', id);
      const bytes = await imageBytes(ctx, image);
      return send(
        request,
        reply,
        bufferEntity(bytes, IMAGE_TYPES[image.source.format] ?? 'application/octet-stream', IMAGE_LAST_MODIFIED),
      );
    },
  });

  app.route({
    method: METHODS,
    url: '/media/:token/video/:file',
    handler: async (request, reply) => {
      const { token, file } = request.params as { token: string; file: string };
      const id = stem(file);
      verified('video', id, token);
      const video = findVideo(ctx, id, ctx.clock.now());
      if (!video) throw notFound('Video', id);
      const download = (request.query as Record<string, unknown>).download === '1';
      return send(request, reply, ctx.fixtures.mp4[video.orientation], download ? `${video.id}.mp4` : undefined);
    },
  });

  app.route({
    method: METHODS,
    url: '/media/:token/hls/:videoId/*',
    handler: async (request, reply) => {
      const params = request.params as { token: string; videoId: string; '*': string };
      verified('hls', params.videoId, params.token);
      if (!findVideo(ctx, params.videoId, ctx.clock.now())) throw notFound('Video', params.videoId);
      const entity = ctx.fixtures.hls.get(params['*']);
      if (!entity) throw notFound('Playlist file', params['*']);
      return send(request, reply, entity);
    },
  });

  app.route({
    method: METHODS,
    url: '/media/blob/:bytes',
    handler: async (request, reply) => {
      const raw = (request.params as { bytes: string }).bytes;
      const bytes = /^\d{1,13}$/.test(raw) ? Number(raw) : NaN;
      if (!(bytes >= 0 && bytes <= MAX_BLOB_BYTES))
        throw invalidField('bytes', `must be an integer from 0 to ${MAX_BLOB_BYTES}`);
      const seed = (request.query as Record<string, unknown>).seed;
      return send(request, reply, blobEntity(bytes, typeof seed === 'string' ? seed : '0', ctx.media.blobGeneration));
    },
  });
}

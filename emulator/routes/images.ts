// GET and DELETE /images/{imageID}: caller-owned images only (others' are 404).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { EmulatorContext } from '../context.ts';
import { notFound, okEnvelope } from '../envelope.ts';
import type { ImageRecord } from '../records.ts';
import { userOf } from '../request-state.ts';
import { imageExists, imageView } from '../views.ts';
import { deleteImageRecord } from './models.ts';

export function ownedExistingImage(
  ctx: EmulatorContext,
  ownerId: string,
  id: string,
  now: number,
): ImageRecord | undefined {
  const image = ctx.store.ownedImage(ownerId, id);
  return image && imageExists(image, now) ? image : undefined;
}

const imageIdParam = (request: FastifyRequest): string => (request.params as { imageID: string }).imageID;

export function registerImageRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  app.get('/images/:imageID', async (request) => {
    const now = ctx.clock.now();
    const image = ownedExistingImage(ctx, userOf(request), imageIdParam(request), now);
    if (!image) throw notFound('Image', imageIdParam(request));
    return okEnvelope(imageView(ctx, image, now));
  });

  app.delete('/images/:imageID', async (request) => {
    const image = ownedExistingImage(ctx, userOf(request), imageIdParam(request), ctx.clock.now());
    if (!image) throw notFound('Image', imageIdParam(request));
    await deleteImageRecord(ctx, image);
    ctx.store.changed();
    return okEnvelope(null);
  });
}

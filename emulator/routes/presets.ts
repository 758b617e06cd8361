// GET /presets: the public preset list.
import type { FastifyInstance } from 'fastify';
import { okEnvelope } from '../envelope.ts';
import { PRESETS } from '../presets.ts';

export function registerPresetRoutes(app: FastifyInstance): void {
  app.get('/presets', async () => okEnvelope(PRESETS.map((p) => ({ ...p }))));
}

// Builds the fastify app: envelope-shaped errors, the hook chain (stats → faults → auth → API-Version) and all routes.
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import multipart from '@fastify/multipart';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { API_VERSION } from '../src-main/contract/service.ts';
import { UPLOAD_RULES } from '../src-main/contract/rules/index.ts';
import type { EmulatorContext } from './context.ts';
import { registerControlRoutes, type EmulatorControl } from './control.ts';
import { nokEnvelope, ServiceError } from './envelope.ts';
import { registerMediaRoutes } from './media/routes.ts';
import { responseFaultOf, setMediaCut, setResponseFault, setUser } from './request-state.ts';
import { registerGenerationRoutes } from './routes/generation.ts';
import { registerImageRoutes } from './routes/images.ts';
import { registerJobRoutes } from './routes/jobs.ts';
import { registerModelRoutes } from './routes/models.ts';
import { registerPresetRoutes } from './routes/presets.ts';
import { registerUploadRoutes } from './routes/upload.ts';
import { registerVideoGenerationRoutes } from './routes/video-generation.ts';
import { registerVideoRoutes } from './routes/videos.ts';

export const CONTROL_PREFIX = '/__emulator';
export const MEDIA_PREFIX = '/media';

type Area = 'control' | 'media' | 'api';

function areaOf(path: string): Area {
  if (path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`)) return 'control';
  if (path.startsWith(`${MEDIA_PREFIX}/`)) return 'media';
  return 'api';
}

export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return v4.startsWith('127.') || address === '::1';
}

function bearerKey(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1];
}

function sendError(reply: FastifyReply, error: ServiceError): FastifyReply {
  return reply.code(error.httpStatus).headers(error.headers).send(nokEnvelope(error.err, error.message));
}

/** Maps fastify's own errors (bad JSON, wrong content type, multipart limits) onto the envelope. */
function toServiceError(error: FastifyError): ServiceError {
  if (error instanceof ServiceError) return error;
  const status = error.statusCode ?? 500;
  if (status === 413) {
    return new ServiceError(
      413,
      'payload_too_large',
      `The request is larger than ${UPLOAD_RULES.maxRequestBytes} bytes (20 MB)`,
    );
  }
  if (status === 415)
    return new ServiceError(
      415,
      'unsupported_media_type',
      'POST bodies must be application/json (uploads: multipart/form-data)',
    );
  if (status >= 400 && status < 500) return new ServiceError(status, 'bad_request', error.message);
  return new ServiceError(500, 'internal_error', 'The emulator hit an internal error');
}

/** A body that ends early: the headers promise the full length, then the socket is destroyed. */
function truncatedBody(payload: string): Readable {
  const half = Buffer.from(payload).subarray(0, Math.floor(Buffer.byteLength(payload) / 2));
  let pushed = false;
  return new Readable({
    read() {
      if (pushed) return;
      pushed = true;
      this.push(half);
      setTimeout(() => this.destroy(new Error('body truncated by the emulator fault knob')), 20);
    },
  });
}

export function buildServer(
  ctx: EmulatorContext,
  control: EmulatorControl,
  options: { controlApi: boolean },
): FastifyInstance {
  const app = Fastify({
    logger: false,
    forceCloseConnections: true,
    bodyLimit: 1024 * 1024,
    // Media HEAD is handled by the media routes themselves so Content-Length stays exact.
    exposeHeadRoutes: false,
  });

  app.setErrorHandler((error: FastifyError, _request, reply) => sendError(reply, toServiceError(error)));
  app.setNotFoundHandler((request, reply) =>
    sendError(
      reply,
      new ServiceError(404, 'not_found', `No route ${request.method} ${request.url.split('?')[0] ?? ''}`),
    ),
  );

  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0] ?? '/';
    const area = areaOf(path);
    if (area === 'control') {
      if (!options.controlApi) throw new ServiceError(404, 'not_found', 'The control API is disabled');
      if (!isLoopbackAddress(request.socket.remoteAddress)) {
        throw new ServiceError(403, 'forbidden', 'The control API answers loopback clients only');
      }
      return;
    }
    const key = bearerKey(request.headers.authorization);
    const userId = key === undefined ? undefined : ctx.users.get(key);
    ctx.stats.record(`${request.method} ${request.routeOptions.url ?? '(unmatched)'}`, userId ?? 'anonymous');

    const faults = ctx.faults.decideRequest(request.method, path, area === 'media' ? 'media' : 'api');
    if (faults.latencyMs > 0) await sleep(faults.latencyMs);
    switch (faults.action?.kind) {
      case 'drop':
        reply.hijack();
        request.raw.socket.destroy();
        return reply;
      case 'rateLimit':
        throw new ServiceError(429, 'rate_limited', 'Too many requests; retry later', {
          'retry-after': String(faults.action.retryAfterSeconds),
        });
      case 'serverError':
        throw new ServiceError(
          faults.action.status,
          faults.action.status === 503 ? 'service_unavailable' : 'internal_error',
          'The service is temporarily unavailable (injected by the emulator)',
        );
    }
    if (faults.response) setResponseFault(request, faults.response);
    if (faults.cutMediaAfterBytes !== undefined) setMediaCut(request, faults.cutMediaAfterBytes);
    if (area === 'media') return;

    if (!userId)
      throw new ServiceError(401, 'unauthorized', 'Missing or unknown API key: send Authorization: Bearer <API_KEY>');
    const version = request.headers['api-version'];
    if (version === undefined)
      throw new ServiceError(
        400,
        'unsupported_api_version',
        `The API-Version header is required; send API-Version: ${API_VERSION}`,
      );
    if (String(version).trim() !== API_VERSION) {
      throw new ServiceError(
        400,
        'unsupported_api_version',
        `API-Version ${String(version)} is not supported; send API-Version: ${API_VERSION}`,
      );
    }
    setUser(request, userId);
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const fault = responseFaultOf(request);
    if (!fault || typeof payload !== 'string') return payload;
    if (fault === 'malformed') {
      // A complete, well-framed body that is not JSON, like an HTML page from a misbehaving proxy.
      return `${payload.slice(0, Math.floor(payload.length / 2))}<html><body>502 Bad Gateway</body></html>`;
    }
    reply.header('content-length', String(Buffer.byteLength(payload)));
    return truncatedBody(payload);
  });

  void app.register(multipart, {
    limits: { fileSize: UPLOAD_RULES.maxRequestBytes, files: 1, fields: 4, parts: 8, fieldSize: 64 * 1024 },
  });
  // Routes go in a child context registered after multipart, so its request decorators exist for them.
  void app.register(async (routes) => {
    registerModelRoutes(routes, ctx);
    registerUploadRoutes(routes, ctx);
    registerImageRoutes(routes, ctx);
    registerGenerationRoutes(routes, ctx);
    registerVideoGenerationRoutes(routes, ctx);
    registerVideoRoutes(routes, ctx);
    registerJobRoutes(routes, ctx);
    registerPresetRoutes(routes);
    registerMediaRoutes(routes, ctx);
    if (options.controlApi) registerControlRoutes(routes, control);
  });
  return app;
}

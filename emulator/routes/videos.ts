// Videos: list (cursor pages, videoType filter), read, and the two-step download preparation.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { EmulatorContext } from '../context.ts';
import { notFound, okEnvelope, okPage, ServiceError } from '../envelope.ts';
import { downloadStateAt } from '../lifecycle.ts';
import { cursorPage, newestFirst, queryParam } from '../pagination.ts';
import { findPublicVideo } from '../public-media.ts';
import { hashInt } from '../random.ts';
import type { DownloadRecord, VideoRecord } from '../records.ts';
import { userOf } from '../request-state.ts';
import { videoExists, videoView } from '../views.ts';

/** Virtual duration of download preparation at timeScale 1 (the spec leaves it open). */
export const DOWNLOAD_PREPARATION_MS: [number, number] = [4_000, 10_000];
/** A video whose prompt contains this word fails download preparation (case-insensitive). */
export const DOWNLOAD_FAIL_MAGIC_WORD = '[fail-download]';

const videoIdParam = (request: FastifyRequest): string => (request.params as { videoID: string }).videoID;

export function ownedExistingVideo(
  ctx: EmulatorContext,
  ownerId: string,
  id: string,
  now: number,
): VideoRecord | undefined {
  const video = ctx.store.ownedVideo(ownerId, id);
  return video && videoExists(video, now) ? video : undefined;
}

/** create-download and download accept the caller's own video or an approved public media video (by either id). */
function downloadableVideo(ctx: EmulatorContext, ownerId: string, id: string, now: number): VideoRecord {
  const video = ownedExistingVideo(ctx, ownerId, id, now) ?? findPublicVideo(id);
  if (!video) throw notFound('Video', id);
  return video;
}

function downloadFailure(ctx: EmulatorContext, video: VideoRecord): string | undefined {
  const prompt = typeof video.data.prompt === 'string' ? video.data.prompt.toLowerCase() : '';
  if (prompt.includes(DOWNLOAD_FAIL_MAGIC_WORD))
    return `Download preparation failed: the prompt asked for it (${DOWNLOAD_FAIL_MAGIC_WORD})`;
  return ctx.faults.decideDownloadFailure();
}

export function registerVideoRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  app.get('/videos', async (request) => {
    const owner = userOf(request);
    const now = ctx.clock.now();
    const videoType = queryParam(request.query, 'videoType') ?? 'all';
    const videos = [...ctx.store.videos.values()]
      .filter(
        (v) =>
          v.ownerId === owner &&
          videoExists(v, now) &&
          (videoType === 'all' || videoType === '' || v.type === videoType),
      )
      .sort(newestFirst);
    const { items, page } = cursorPage(videos, request.query, `videos|${videoType}`);
    return okPage(
      items.map((v) => videoView(ctx, v)),
      page,
    );
  });

  app.get('/videos/:videoID', async (request) => {
    const video = ownedExistingVideo(ctx, userOf(request), videoIdParam(request), ctx.clock.now());
    if (!video) throw notFound('Video', videoIdParam(request));
    return okEnvelope(videoView(ctx, video));
  });

  app.get('/videos/:videoID/create-download', async (request) => {
    const owner = userOf(request);
    const now = ctx.clock.now();
    const video = downloadableVideo(ctx, owner, videoIdParam(request), now);
    const key = ctx.store.downloadKey(owner, video.id);
    const existing = ctx.store.downloads.get(key);
    const state = existing ? downloadStateAt(existing, now).status : undefined;
    // Asking again while preparing or when ready changes nothing; after an error it starts over.
    if (state === 'inprogress') return okEnvelope(`Download preparation for video ${video.id} is in progress`);
    if (state === 'ready') return okEnvelope(`Download for video ${video.id} is ready`);
    const failure = downloadFailure(ctx, video);
    const download: DownloadRecord = {
      ownerId: owner,
      videoId: video.id,
      requestedAt: now,
      readyAt: now + hashInt(`${key}:${now}`, ...DOWNLOAD_PREPARATION_MS),
      outcome: failure ? 'error' : 'ready',
      ...(failure ? { error: failure } : {}),
    };
    ctx.store.downloads.set(key, download);
    ctx.store.changed();
    return okEnvelope(`Download preparation for video ${video.id} started`);
  });

  app.get('/videos/:videoID/download', async (request) => {
    const owner = userOf(request);
    const now = ctx.clock.now();
    const video = downloadableVideo(ctx, owner, videoIdParam(request), now);
    const download = ctx.store.downloads.get(ctx.store.downloadKey(owner, video.id));
    if (!download) {
      throw new ServiceError(
        404,
        'not_found',
        `No download was requested for video ${video.id}; call GET /videos/${video.id}/create-download first`,
      );
    }
    const state = downloadStateAt(download, now);
    return okEnvelope(state.status === 'ready' ? { ...state, url: ctx.urls.download(video.id) } : state);
  });
}

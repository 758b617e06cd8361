// Records → the JSON resources of spec §2 (statuses and visibility computed at the virtual now).
import type { EmulatorContext } from './context.ts';
import { jobStatusAt, jobUpdatedAt, modelStatusAt, modelUpdatedAt } from './lifecycle.ts';
import type { ImageRecord, JobRecord, ModelRecord, VideoRecord } from './records.ts';

const iso = (ms: number): string => new Date(ms).toISOString();

export function modelView(ctx: EmulatorContext, model: ModelRecord, now: number): Record<string, unknown> {
  const training = model.trainingJobId ? ctx.store.jobs.get(model.trainingJobId) : undefined;
  return {
    id: model.id,
    modelType: model.modelType,
    status: modelStatusAt(model, training, now),
    createdAt: iso(model.createdAt),
    updatedAt: iso(modelUpdatedAt(model, training, now)),
  };
}

/** Outputs exist only once their job has finished successfully (they are stored ahead of time). */
export function imageExists(image: ImageRecord, now: number): boolean {
  return image.createdAt <= now;
}

export function videoExists(video: VideoRecord, now: number): boolean {
  return video.createdAt <= now;
}

/** The upscale of `image` that finished last among those that exist at `now` (a running one never counts). */
function latestUpscale(ctx: EmulatorContext, image: ImageRecord, now: number): ImageRecord | undefined {
  let latest: ImageRecord | undefined;
  for (const id of image.upscaledImageIds ?? []) {
    const upscaled = ctx.store.images.get(id);
    if (upscaled && imageExists(upscaled, now) && (!latest || upscaled.createdAt >= latest.createdAt)) {
      latest = upscaled;
    }
  }
  return latest;
}

export function imageView(ctx: EmulatorContext, image: ImageRecord, now: number): Record<string, unknown> {
  const upscaledVisible = latestUpscale(ctx, image, now);
  return {
    id: image.id,
    modelID: image.modelID,
    type: image.type,
    url: ctx.urls.image(image),
    upscaledImageID: upscaledVisible?.id ?? '',
    upscaledImageURL: upscaledVisible ? ctx.urls.image(upscaledVisible) : '',
    folderID: '',
    publicMediaID: '',
    liked: false,
    data: image.data,
    createdAt: iso(image.createdAt),
    updatedAt: iso(upscaledVisible ? Math.max(image.updatedAt, upscaledVisible.createdAt) : image.updatedAt),
  };
}

/** The spec's "sanitized" form: only the documented fields, nothing internal. */
export function videoView(ctx: EmulatorContext, video: VideoRecord): Record<string, unknown> {
  return {
    id: video.id,
    jobId: video.jobId,
    modelID: video.modelID,
    type: video.type,
    url: ctx.urls.video(video),
    folderID: '',
    publicMediaID: video.publicMediaID ?? '',
    liked: false,
    data: video.data,
    createdAt: iso(video.createdAt),
    updatedAt: iso(video.createdAt),
  };
}

export function jobView(ctx: EmulatorContext, job: JobRecord, now: number): Record<string, unknown> {
  const status = jobStatusAt(job, now);
  const out: Record<string, unknown> = { jobId: job.id, status, createdAt: iso(job.createdAt) };
  if (status === 'success') {
    if (job.kind === 'image' || job.kind === 'upscale') {
      out.images = job.outputIds
        .map((id) => ctx.store.images.get(id))
        .filter((image): image is ImageRecord => image !== undefined)
        .map((image) => ({ id: image.id, url: ctx.urls.image(image) }));
    } else if (job.kind === 'video') {
      out.videos = job.outputIds
        .map((id) => ctx.store.videos.get(id))
        .filter((video): video is VideoRecord => video !== undefined)
        .map((video) => ({ id: video.id, url: ctx.urls.video(video) }));
    }
  }
  if (status === 'failed') out.error = job.error ?? 'The job failed';
  return out;
}

export function jobSummaryView(job: JobRecord, now: number): Record<string, unknown> {
  const status = jobStatusAt(job, now);
  return {
    jobId: job.id,
    status,
    createdAt: iso(job.createdAt),
    updatedAt: iso(jobUpdatedAt(job, now)),
    // Failed jobs are refunded, so they cost nothing.
    credits: status === 'failed' ? 0 : job.credits,
    errorMessage: status === 'failed' ? (job.error ?? 'The job failed') : '',
  };
}

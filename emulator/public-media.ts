// Approved public media videos: not owned by anyone, yet their download links work for every caller (spec §4).
import type { VideoRecord } from './records.ts';

const PUBLISHED_AT = Date.UTC(2025, 0, 15, 12, 0, 0);

export const PUBLIC_MEDIA_VIDEOS: readonly VideoRecord[] = [
  {
    id: 'vid_public_aurora',
    publicMediaID: 'pm_aurora_timelapse',
    prompt: 'Aurora over a frozen lake, time-lapse',
    orientation: 'landscape' as const,
  },
  {
    id: 'vid_public_city',
    publicMediaID: 'pm_city_rain_walk',
    prompt: 'Walking through a neon city in the rain',
    orientation: 'portrait' as const,
  },
  {
    id: 'vid_public_waves',
    publicMediaID: 'pm_slow_waves',
    prompt: 'Slow waves on a black sand beach',
    orientation: 'landscape' as const,
  },
].map(({ id, publicMediaID, prompt, orientation }) => ({
  id,
  ownerId: '',
  jobId: '',
  modelID: 'videoa-3.1',
  type: 'text-to-video',
  createdAt: PUBLISHED_AT,
  delivery: 'mp4' as const,
  orientation,
  data: { prompt },
  publicMediaID,
}));

/** Finds an approved public video by its video id or its public media id. */
export function findPublicVideo(id: string): VideoRecord | undefined {
  return PUBLIC_MEDIA_VIDEOS.find((v) => v.id === id || v.publicMediaID === id);
}

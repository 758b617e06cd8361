// A paid action in flight for one source (today: an upscale of one image), from the one job list
// plus the requests this window is sending right now (the moment before the core has written the
// job). While one is in flight, its button says so and a second press sends nothing; once it has
// ended, sending again is a new, deliberate request ("Upscale again").
import type { JobInfo } from '@contract/ipc/jobs.ts';

export type InFlightState = 'sending' | 'submitting' | 'queued' | 'running';

export interface InFlight {
  state: InFlightState;
  /** When it was sent (epoch ms); null while this window is still handing it to the core. */
  since: number | null;
  /** The local job, once the core has written it. */
  localId: number | null;
}

/** The key of "an upscale of this image" among the requests being sent. */
export const upscaleKey = (imageId: string): string => `upscale:${imageId}`;

const LIVE = new Set<JobInfo['state']>(['submitting', 'queued', 'running']);

/** The newest upscale of `imageId` that is being sent, queued or running, if any. */
export function liveUpscaleOf(jobs: readonly JobInfo[], imageId: string): JobInfo | null {
  let newest: JobInfo | null = null;
  for (const job of jobs) {
    if (job.kind !== 'upscale' || job.sourceImageId !== imageId || !LIVE.has(job.state)) continue;
    if (!newest || job.createdAt > newest.createdAt) newest = job;
  }
  return newest;
}

/** Whether an upscale of `imageId` has succeeded before (pressing again is then "Upscale again"). */
export const upscaledBefore = (jobs: readonly JobInfo[], imageId: string): boolean =>
  jobs.some((job) => job.kind === 'upscale' && job.sourceImageId === imageId && job.state === 'succeeded');

/** An upscale of `imageId` in flight: a live job in the list, else one this window is sending. */
export function upscaleInFlight(
  jobs: readonly JobInfo[],
  sending: { has(key: string): boolean },
  imageId: string,
): InFlight | null {
  const job = liveUpscaleOf(jobs, imageId);
  if (job) {
    const state = job.state === 'queued' || job.state === 'running' ? job.state : 'submitting';
    return { state, since: job.submittedAt ?? job.createdAt, localId: job.localId };
  }
  return sending.has(upscaleKey(imageId)) ? { state: 'sending', since: null, localId: null } : null;
}

/** "12s", "3m 05s": how long it has been in flight. */
export function elapsedText(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
}

/** The button's words while it is in flight: "Upscaling… 12s" (queued or running), "Sending upscale…". */
export function inFlightLabel(flight: InFlight, now: number): string {
  if (flight.state === 'sending' || flight.state === 'submitting' || flight.since === null) return 'Sending upscale…';
  const verb = flight.state === 'queued' ? 'Upscale queued' : 'Upscaling…';
  return `${verb} ${elapsedText(now - flight.since)}`;
}

/** Why the button does nothing now (its tooltip and what a screen reader hears). */
export function inFlightReason(flight: InFlight): string {
  return flight.state === 'sending' || flight.state === 'submitting'
    ? 'The upscale of this image is being sent: it is not sent twice.'
    : 'This image is being upscaled: the new image appears beside it when it is done. It is not sent twice.';
}

/**
 * Runs `send` unless a request with `key` is already on its way (then resolves `{ sent: false }`
 * without running it). `sending` is the shared set of keys in flight; the key stays in it until
 * `send` has settled, so a double press in one tick sends once.
 */
export async function sendOnce<T>(
  sending: { has(key: string): boolean; add(key: string): unknown; delete(key: string): unknown },
  key: string,
  send: () => Promise<T>,
): Promise<{ sent: true; value: T } | { sent: false }> {
  if (sending.has(key)) return { sent: false };
  sending.add(key);
  try {
    return { sent: true, value: await send() };
  } finally {
    sending.delete(key);
  }
}

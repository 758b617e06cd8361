// Test helpers: finished image and video outputs from a running emulator (real HTTP, demo key).
import type { RunningEmulator } from '../../../../emulator/index.ts';
import type { Job, JobOutput } from '../../../contract/service.ts';

const HOUR = 60 * 60 * 1000;

async function call<T>(emulator: RunningEmulator, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${emulator.url}${path}`, {
    method,
    headers: {
      authorization: 'Bearer demo-key',
      'api-version': '1',
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const envelope = (await response.json()) as { status: string; result: T; message?: string };
  if (envelope.status !== 'OK') throw new Error(`${method} ${path}: ${envelope.message ?? response.status}`);
  return envelope.result;
}

async function finish(emulator: RunningEmulator, jobIds: string[]): Promise<Job[]> {
  emulator.control.advanceClock(HOUR);
  return Promise.all(jobIds.map((id) => call<Job>(emulator, 'GET', `/jobs/${id}`)));
}

/** Runs `count` video jobs to success; the emulator alternates MP4 and HLS answers. */
export async function finishedVideos(
  emulator: RunningEmulator,
  count: number,
  prompt = 'a calm lake',
): Promise<JobOutput[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const trigger = await call<{ jobId: string }>(emulator, 'POST', '/videos/generation', {
      modelID: 'videoa-3.1',
      prompt: `${prompt} ${i}`,
    });
    ids.push(trigger.jobId);
  }
  return (await finish(emulator, ids)).flatMap((job) => job.videos ?? []);
}

export async function finishedImages(
  emulator: RunningEmulator,
  count: number,
  prompt = 'a red fox',
): Promise<JobOutput[]> {
  const trigger = await call<{ jobId: string }>(emulator, 'POST', '/images/generation', {
    modelID: 'imagea',
    prompt,
    numImages: count,
  });
  return (await finish(emulator, [trigger.jobId])).flatMap((job) => job.images ?? []);
}

export { call as emulatorCall };

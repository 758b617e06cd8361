// Everything a route needs, built once per emulator instance and handed to each route module.
import { createHash } from 'node:crypto';
import type { VirtualClock } from './clock.ts';
import type { FaultEngine } from './faults.ts';
import type { VideoFixtures } from './media/fixtures.ts';
import type { ImageRenderer } from './media/image-render.ts';
import type { MediaSigner, MediaUrls } from './media/signing.ts';
import type { UploadStore } from './persistence.ts';
import type { RequestStats } from './stats.ts';
import type { EmulatorStore } from './store.ts';

/** Per-user limit on trainings running at once; the next trigger answers 429 (spec: "too many"). */
export const MAX_CONCURRENT_TRAININGS = 2;

/** Users are identified by a hash of their key, so the key itself is never stored, logged or persisted. */
export function userIdForApiKey(apiKey: string): string {
  return `usr_${createHash('sha256').update(apiKey).digest('hex').slice(0, 16)}`;
}

export interface EmulatorContext {
  store: EmulatorStore;
  clock: VirtualClock;
  faults: FaultEngine;
  stats: RequestStats;
  uploads: UploadStore;
  renderer: ImageRenderer;
  fixtures: VideoFixtures;
  signer: MediaSigner;
  urls: MediaUrls;
  /** API key → user id. */
  users: Map<string, string>;
  maxConcurrentTrainings: number;
  /** Job lifecycles run this many times faster than the clock (1: the durations below, as they are). */
  jobSpeed: number;
  /** Bumped by the control API so blob URLs change content (If-Range tests). */
  media: { blobGeneration: number };
}

// In-memory state of the emulated service: records per kind, ownership lookups, ids, and snapshot/restore.
import { randomBytes } from 'node:crypto';
import type { DownloadRecord, ImageRecord, JobRecord, ModelRecord, VideoRecord } from './records.ts';
import { SeededRandom } from './random.ts';

export const SNAPSHOT_VERSION = 1;

export interface StoreSnapshot {
  version: number;
  savedAt: number;
  virtualNow: number;
  sequence: number;
  videoJobCount: number;
  randomState: number;
  mediaSecret: string;
  models: ModelRecord[];
  images: ImageRecord[];
  videos: VideoRecord[];
  jobs: JobRecord[];
  downloads: DownloadRecord[];
}

/** Older snapshots kept only the latest upscale's id; the list form keeps earlier ones visible while one runs. */
function withUpscaleList(image: ImageRecord): ImageRecord {
  const { upscaledImageId, ...rest } = image;
  if (upscaledImageId === undefined || rest.upscaledImageIds) return rest;
  return { ...rest, upscaledImageIds: [upscaledImageId] };
}

const modelKey = (ownerId: string, id: string): string => `${ownerId}\u0000${id}`;

export class EmulatorStore {
  /** Model ids are scoped per owner: every user has their own `free-general`. */
  readonly models = new Map<string, ModelRecord>();
  readonly images = new Map<string, ImageRecord>();
  readonly videos = new Map<string, VideoRecord>();
  readonly jobs = new Map<string, JobRecord>();
  readonly downloads = new Map<string, DownloadRecord>();
  private sequence = 0;
  private videoJobs = 0;
  private random: SeededRandom;
  private secret: string;
  private readonly listeners = new Set<() => void>();

  constructor(seed?: number) {
    this.random = new SeededRandom(seed ?? randomBytes(4).readUInt32LE(0));
    // A seeded run gets a repeatable secret so URLs are stable between runs of the same test.
    this.secret = seed === undefined ? randomBytes(32).toString('hex') : this.random.hex(64);
  }

  get mediaSecret(): string {
    return this.secret;
  }

  get rng(): SeededRandom {
    return this.random;
  }

  /** Ids carry a counter (unique across restarts, since it is persisted) and random hex (not enumerable). */
  newId(prefix: string): string {
    this.sequence += 1;
    return `${prefix}_${this.sequence.toString(36).padStart(4, '0')}${this.random.hex(12)}`;
  }

  /** Counts video jobs so every second one can answer with an HLS playlist. */
  nextVideoJobIndex(): number {
    this.videoJobs += 1;
    return this.videoJobs;
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  changed(): void {
    for (const listener of this.listeners) listener();
  }

  getModel(ownerId: string, id: string): ModelRecord | undefined {
    return this.models.get(modelKey(ownerId, id));
  }

  putModel(model: ModelRecord): void {
    this.models.set(modelKey(model.ownerId, model.id), model);
  }

  deleteModel(model: ModelRecord): void {
    this.models.delete(modelKey(model.ownerId, model.id));
  }

  modelsOf(ownerId: string): ModelRecord[] {
    return [...this.models.values()].filter((m) => m.ownerId === ownerId);
  }

  ownedImage(ownerId: string, id: string): ImageRecord | undefined {
    const image = this.images.get(id);
    return image && image.ownerId === ownerId ? image : undefined;
  }

  ownedVideo(ownerId: string, id: string): VideoRecord | undefined {
    const video = this.videos.get(id);
    return video && video.ownerId === ownerId ? video : undefined;
  }

  ownedJob(ownerId: string, id: string): JobRecord | undefined {
    const job = this.jobs.get(id);
    return job && job.ownerId === ownerId ? job : undefined;
  }

  downloadKey(ownerId: string, videoId: string): string {
    return `${ownerId}\u0000${videoId}`;
  }

  /** Forgets all records. The id sequence keeps counting so ids from before a reset are never reused. */
  clear(): void {
    this.videoJobs = 0;
    this.models.clear();
    this.images.clear();
    this.videos.clear();
    this.jobs.clear();
    this.downloads.clear();
    this.changed();
  }

  snapshot(virtualNow: number): StoreSnapshot {
    return {
      version: SNAPSHOT_VERSION,
      savedAt: Date.now(),
      virtualNow,
      sequence: this.sequence,
      videoJobCount: this.videoJobs,
      randomState: this.random.seedState,
      mediaSecret: this.secret,
      models: [...this.models.values()],
      images: [...this.images.values()],
      videos: [...this.videos.values()],
      jobs: [...this.jobs.values()],
      downloads: [...this.downloads.values()],
    };
  }

  restore(snapshot: StoreSnapshot): void {
    this.clear();
    this.sequence = snapshot.sequence;
    this.videoJobs = snapshot.videoJobCount;
    this.random = new SeededRandom(snapshot.randomState);
    this.secret = snapshot.mediaSecret;
    for (const model of snapshot.models) this.putModel(model);
    for (const image of snapshot.images) this.images.set(image.id, withUpscaleList(image));
    for (const video of snapshot.videos) this.videos.set(video.id, video);
    for (const job of snapshot.jobs) this.jobs.set(job.id, job);
    for (const download of snapshot.downloads)
      this.downloads.set(this.downloadKey(download.ownerId, download.videoId), download);
  }
}

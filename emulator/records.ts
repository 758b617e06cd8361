// Stored record shapes. Lifecycle states are NOT stored: they follow from timestamps (see lifecycle.ts).

export type JobKind = 'image' | 'upscale' | 'video' | 'training';
export type UploadType = 'modelInput' | 'auxiliaryType';
export type ImageType = UploadType | 'output';
export type ImageFormat = 'jpeg' | 'png' | 'webp' | 'heic';

export interface ModelRecord {
  id: string;
  ownerId: string;
  modelType: string;
  /** Free and general models that GET /models adds; they are ready from the start. */
  builtIn: boolean;
  createdAt: number;
  updatedAt: number;
  /** The latest training job, whose timeline drives the model's status. */
  trainingJobId?: string;
}

/** How the bytes of an image are produced when its media URL is fetched. */
export type ImageSource =
  | { kind: 'upload'; format: ImageFormat; sizeBytes: number; fileName: string }
  | {
      kind: 'render';
      format: 'png' | 'jpeg';
      width: number;
      height: number;
      prompt: string;
      seed: number;
      caption: string;
    }
  | { kind: 'upscale'; format: 'png' | 'jpeg'; width: number; height: number; fromImageId: string };

export interface ImageRecord {
  id: string;
  ownerId: string;
  modelID: string;
  type: ImageType;
  /** Outputs are created with the job but only exist from this instant (the job's finish). */
  createdAt: number;
  updatedAt: number;
  jobId?: string;
  source: ImageSource;
  data: Record<string, unknown>;
  /**
   * Outputs of the upscaling jobs started on this image, oldest first. The view links the one that finished
   * last among those that exist now, so a running upscale never hides an earlier finished one.
   */
  upscaledImageIds?: string[];
  /** Snapshots written before `upscaledImageIds` held a single id here; read on restore only. */
  upscaledImageId?: string;
}

export interface VideoRecord {
  id: string;
  ownerId: string;
  jobId: string;
  modelID: string;
  type: string;
  createdAt: number;
  /** Which fixture answers the URL: the MP4 file or the HLS playlist. */
  delivery: 'mp4' | 'hls';
  orientation: 'landscape' | 'portrait';
  data: Record<string, unknown>;
  /** Approved public media carry their public id; the emulator's own catalogue only. */
  publicMediaID?: string;
}

export interface JobRecord {
  id: string;
  ownerId: string;
  kind: JobKind;
  modelID: string;
  createdAt: number;
  /** End of the `created` phase (equal to createdAt when a job starts out queued). */
  createdUntil: number;
  queuedUntil: number;
  finishAt: number;
  outcome: 'success' | 'failed';
  error?: string;
  credits: number;
  /** Image or video ids the job yields on success. */
  outputIds: string[];
}

export interface DownloadRecord {
  ownerId: string;
  videoId: string;
  requestedAt: number;
  readyAt: number;
  outcome: 'ready' | 'error';
  error?: string;
}

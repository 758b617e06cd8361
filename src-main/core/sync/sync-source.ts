// What sync reads from the service: the four list calls (plus, optionally, the job scan's calls),
// as a structural interface the API client (core/api ServiceClient) satisfies, so sync can be
// tested against any source.
import type { JobScanSource } from './job-scan.ts';
import type { CursorPage, ImageListFilter, ImageRecord, Model, Preset, VideoRecord } from '../../contract/service.ts';

export interface SyncCallOptions {
  signal?: AbortSignal;
}

export interface SyncSource extends Partial<JobScanSource> {
  listModels(call?: SyncCallOptions): Promise<Model[]>;
  listPresets(call?: SyncCallOptions): Promise<Preset[]>;
  listModelImages(
    modelID: string,
    options?: { imageType?: ImageListFilter; pageSize?: number; signal?: AbortSignal },
  ): AsyncIterable<CursorPage<ImageRecord>>;
  listVideos(options?: {
    videoType?: string;
    pageSize?: number;
    signal?: AbortSignal;
  }): AsyncIterable<CursorPage<VideoRecord>>;
}

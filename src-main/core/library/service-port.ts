// The few service calls the library makes, as an interface the account's API client satisfies
// (core/api). Media bytes never go through it: they come from signed links without the key.
import type { ImageRecord, VideoDownload, VideoRecord } from '../../contract/service.ts';

export interface LibraryServiceClient {
  /** GET /videos/{id}/create-download */
  createVideoDownload(videoId: string): Promise<unknown>;
  /** GET /videos/{id}/download */
  getVideoDownload(videoId: string): Promise<VideoDownload>;
  /** GET /images/{id}: a fresh signed url when an old one expired. */
  getImage(imageId: string): Promise<ImageRecord>;
  /** GET /videos/{id} */
  getVideo(videoId: string): Promise<VideoRecord>;
  /** DELETE /images/{id} */
  deleteImage(imageId: string): Promise<unknown>;
}

// What the upload queue needs from the service, and its adapter over the app's ServiceClient.
import type { UploadedImage, UploadType } from '../../contract/service.ts';
import { countModelImages } from '../api/model-images.ts';
import type { ServiceClient } from '../api/service-client.ts';
import type { UploadImageRequest } from '../api/upload.ts';

export interface UploadService {
  uploadImage(request: UploadImageRequest): Promise<UploadedImage>;
  /** A model's uploaded images of one type, all pages. */
  countModelImages(modelId: string, type: UploadType, signal?: AbortSignal): Promise<number>;
}

export function uploadServiceFromClient(client: ServiceClient): UploadService {
  return {
    uploadImage: (request) => client.uploadImage(request),
    countModelImages: (modelId, type, signal) => countModelImages(client, modelId, type, signal),
  };
}

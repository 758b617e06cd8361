// How many images of one type a model already has on the service: the jobs engine's training
// check and the upload queue's 20-a-type limit both ask it.
import type { UploadType } from '../../contract/service.ts';
import type { ServiceClient } from './service-client.ts';

/** A model's uploaded images of one type (GET /models/{id}/images, all pages). */
export async function countModelImages(
  client: Pick<ServiceClient, 'listModelImages'>,
  modelId: string,
  type: UploadType,
  signal?: AbortSignal,
): Promise<number> {
  let count = 0;
  const imageType = type === 'modelInput' ? 'input' : 'auxiliaryType';
  for await (const page of client.listModelImages(modelId, {
    imageType,
    pageSize: 100,
    ...(signal ? { signal } : {}),
  })) {
    count += page.items.filter((image) => image.type === type).length;
  }
  return count;
}

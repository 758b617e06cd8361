// Test helper: the library's service port over plain fetch, for tests that run before (or
// without) the app's API client. Errors become AppErrors the way the real client maps them.
import { AppError } from '../../../contract/errors.ts';
import type { ImageRecord, VideoDownload, VideoRecord } from '../../../contract/service.ts';
import type { LibraryServiceClient } from '../service-port.ts';

export function emulatorLibraryClient(
  baseUrl: string,
  apiKey = 'demo-key',
): LibraryServiceClient & { calls: string[] } {
  const calls: string[] = [];
  const call = async <T>(method: string, path: string): Promise<T> => {
    calls.push(`${method} ${path}`);
    let response: Response;
    try {
      response = await fetch(`${baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${apiKey}`, 'api-version': '1' },
      });
    } catch {
      throw new AppError({ code: 'network', message: 'network' });
    }
    const body = (await response.json().catch(() => null)) as { status?: string; result?: T; message?: string } | null;
    if (response.ok && body?.status === 'OK') return body.result as T;
    const code =
      response.status === 404
        ? 'not_found'
        : response.status >= 500
          ? 'server'
          : response.status === 401
            ? 'auth'
            : 'validation';
    throw new AppError({ code, message: body?.message ?? `HTTP ${response.status}`, httpStatus: response.status });
  };
  return {
    calls,
    createVideoDownload: (id) => call('GET', `/videos/${id}/create-download`),
    getVideoDownload: (id) => call<VideoDownload>('GET', `/videos/${id}/download`),
    getImage: (id) => call<ImageRecord>('GET', `/images/${id}`),
    getVideo: (id) => call<VideoRecord>('GET', `/videos/${id}`),
    deleteImage: (id) => call('DELETE', `/images/${id}`),
  };
}

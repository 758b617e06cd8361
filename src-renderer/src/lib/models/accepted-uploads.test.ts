import type { UploadInfo } from '@contract/ipc/uploads.ts';
import { describe, expect, it } from 'vitest';
import { withAcceptedUploads } from './accepted-uploads.ts';

const upload = (id: number, state: UploadInfo['state']): UploadInfo => ({
  id,
  modelId: 'm',
  type: 'auxiliaryType',
  fileName: `f${id}.png`,
  bytes: 10,
  state,
  progress: state === 'succeeded' ? 1 : 0,
  imageId: state === 'succeeded' ? `img_${id}` : null,
  error: null,
  warning: null,
  width: null,
  height: null,
  attempts: 0,
  createdAt: 1,
});

describe('withAcceptedUploads', () => {
  it('adds the uploads no event told of yet', () => {
    expect(withAcceptedUploads([upload(1, 'uploading')], [upload(2, 'queued')]).map((u) => u.id)).toEqual([1, 2]);
  });

  it('keeps what a newer event said about an upload (no duplicate, no step back to queued)', () => {
    const merged = withAcceptedUploads([upload(2, 'succeeded')], [upload(2, 'queued')]);
    expect(merged).toEqual([upload(2, 'succeeded')]);
  });

  it('does not bring back an upload that already ended and left the list', () => {
    expect(withAcceptedUploads([], [upload(3, 'queued')], new Set([3]))).toEqual([]);
  });
});

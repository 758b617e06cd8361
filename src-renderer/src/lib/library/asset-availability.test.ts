import { describe, expect, it } from 'vitest';
import type { AssetInfo } from '@contract/ipc/assets.ts';
import { assetAvailability } from './asset-availability.ts';

const image = (over: Partial<AssetInfo> = {}): AssetInfo => ({
  kind: 'image',
  id: 'img_1',
  origin: 'generated',
  modelId: 'imagea',
  type: 'output',
  url: 'https://media.example.test/img_1.jpg',
  hls: false,
  upscaledImageId: null,
  upscaledImageUrl: null,
  sourceAssetId: null,
  folderId: null,
  publicMediaId: null,
  liked: false,
  favorite: false,
  rating: 0,
  flag: null,
  uploadName: null,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: null,
  jobId: 'job_1',
  prompt: 'a lighthouse',
  preset: null,
  paramsJson: JSON.stringify({ modelID: 'imagea', prompt: 'a lighthouse' }),
  frames: null,
  width: 1024,
  height: 1024,
  durationMs: null,
  format: null,
  factsFrom: null,
  file: { state: 'remote', path: null, thumbPath: null, localUrl: null, thumbUrl: null, bytes: null },
  removedFromService: false,
  ...over,
});

const online = { offline: false, waitReason: 'offline!', needsService: () => null };
const offline = { offline: true, waitReason: 'offline!', needsService: (what: string) => `${what} needs the service.` };
const downloaded = {
  state: 'downloaded' as const,
  path: 'images/img_1.jpg',
  thumbPath: '.thumbs/img_1.webp',
  localUrl: '/media/images/img_1.jpg',
  thumbUrl: '/media/.thumbs/img_1.webp',
  bytes: 10,
};

describe('assetAvailability', () => {
  it('offers everything remote for an online remote image, and nothing that needs a local file', () => {
    const a = assetAvailability(image(), online);
    expect(a.download).toBeNull();
    expect(a.upscale).toBeNull();
    expect(a.remix).toBeNull();
    expect(a.firstFrame).toBeNull();
    expect(a.deleteRemote).toBeNull();
    expect(a.export).toMatch(/download it first/);
    expect(a.removeLocal).toMatch(/no local copy/);
    expect(a.showInFolder).not.toBeNull();
    expect(a.openWith).not.toBeNull();
  });

  it('explains why remote actions wait while offline, and keeps local ones for a downloaded image', () => {
    const a = assetAvailability(image({ file: downloaded }), offline);
    // The true reason: an upscale runs on the service; the file being here or not is beside the point.
    expect(a.upscale).toBe('Upscaling needs the service.');
    expect(a.deleteRemote).toBe('Deleting it from the service needs the service.');
    expect(assetAvailability(image(), offline).upscale).toBe('Upscaling needs the service.');
    expect(a.download).toMatch(/Already downloaded/);
    expect(a.export).toBeNull();
    expect(a.removeLocal).toBeNull();
    expect(a.remix).toBeNull();
    expect(assetAvailability(image(), offline).download).toBe('offline!');
  });

  it('refuses to delete videos on the service and to upscale or use them as frames', () => {
    const a = assetAvailability(image({ kind: 'video', id: 'vid_1' }), online);
    expect(a.deleteRemote).toMatch(/no way to delete videos/);
    expect(a.upscale).toMatch(/Only images/);
    expect(a.lastFrame).toMatch(/Only images/);
  });

  it('sends an upscale to its source for remix, and an asset without a request nowhere', () => {
    expect(
      assetAvailability(image({ paramsJson: JSON.stringify({ imageID: 'img_0' }), sourceAssetId: 'img_0' }), online)
        .remix,
    ).toMatch(/remix the image it was made from/);
    expect(assetAvailability(image({ paramsJson: null }), online).remix).toMatch(/not known/);
  });

  it('knows an item gone from the service keeps only its local copy', () => {
    const a = assetAvailability(image({ removedFromService: true, file: downloaded }), online);
    expect(a.deleteRemote).toMatch(/already gone/);
    expect(a.upscale).toMatch(/no longer on the service/);
    expect(a.export).toBeNull();
  });
});

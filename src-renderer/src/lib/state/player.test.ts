// What the player plays for a video: the local copy first (an HLS copy through the HLS engine, an MP4
// natively), else the service's stream or MP4; offline without a copy, why it waits. The tiles' scrub
// seeks only what the browser can seek by itself: never an HLS copy.
import { describe, expect, it } from 'vitest';
import { fakeCore, installFakeCore } from '../test-support/fake-core.ts';
import { assetRecord } from '../test-support/records.ts';

installFakeCore(fakeCore());
const { playbackSource } = await import('./player.svelte.ts');
const { seekableLocalUrl } = await import('../library/media-url.ts');

const downloaded = (path: string) =>
  assetRecord({
    kind: 'video',
    url: 'https://media.example/v.m3u8',
    hls: true,
    file: { state: 'downloaded', path, thumbPath: null, localUrl: `/media/${path}`, thumbUrl: null, bytes: 1 },
  });

describe('playback source', () => {
  it('plays a local HLS copy as HLS and a local MP4 natively; only the MP4 is seekable by a tile', () => {
    expect(playbackSource(downloaded('Videos/v/index.M3U8'), false, '')).toEqual({
      kind: 'hls',
      url: '/media/Videos/v/index.M3U8',
      local: true,
    });
    expect(seekableLocalUrl(downloaded('Videos/v/index.M3U8'))).toBeNull();
    expect(playbackSource(downloaded('Videos/v.mp4'), true, 'offline')).toMatchObject({ kind: 'mp4', local: true });
    expect(seekableLocalUrl(downloaded('Videos/v.mp4'))).toBe('/media/Videos/v.mp4');
  });

  it("streams the service's HLS or MP4 when there is no copy, and says why it waits offline", () => {
    const remote = assetRecord({ kind: 'video', url: 'https://media.example/v.m3u8', hls: true });
    expect(playbackSource(remote, false, '')).toEqual({ kind: 'hls', url: remote.url, local: false });
    expect(playbackSource({ ...remote, hls: false }, false, '')).toMatchObject({ kind: 'mp4', local: false });
    expect(playbackSource(remote, true, 'You are offline.')).toEqual({
      kind: 'unavailable',
      reason: 'You are offline.',
    });
  });
});

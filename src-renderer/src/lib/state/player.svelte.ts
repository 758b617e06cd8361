// What the player plays for a video: the local copy when there is one (an MP4, or an HLS copy), else
// the service's stream (HLS through hls.js) or MP4; offline without a copy, why it waits.
// Volume and mute are remembered across videos for the session.
import type { AssetInfo } from '@contract/ipc/assets.ts';
import { localFileUrl } from '../library/media-url.ts';

export type PlaybackSource =
  { kind: 'mp4' | 'hls'; url: string; local: boolean } | { kind: 'unavailable'; reason: string };

const isPlaylist = (path: string): boolean => /\.m3u8$/i.test(path);

export function playbackSource(asset: AssetInfo, offline: boolean, waitReason: string): PlaybackSource {
  const local = localFileUrl(asset);
  if (local && asset.file.path) return { kind: isPlaylist(asset.file.path) ? 'hls' : 'mp4', url: local, local: true };
  if (offline) return { kind: 'unavailable', reason: waitReason };
  if (asset.removedFromService || !asset.url) {
    return { kind: 'unavailable', reason: 'The service no longer has this video and there is no local copy.' };
  }
  return { kind: asset.hls ? 'hls' : 'mp4', url: asset.url, local: false };
}

class PlayerPreferences {
  muted = $state(false);
  volume = $state(1);
}

export const playerPreferences = new PlayerPreferences();

// What the player plays for a video: the local copy when there is one (an MP4, or an HLS copy), else
// the service's stream (HLS through hls.js) or MP4; offline without a copy, why it waits.
// Volume and mute are remembered across videos for the session. A PlayerController mirrors one
// <video> element for the controls drawn on the picture and takes the keyboard's commands.
import type { AssetInfo } from '@contract/ipc/assets.ts';
import { isPlaylistCopy, localFileUrl } from '../library/media-url.ts';

export type PlaybackSource =
  { kind: 'mp4' | 'hls'; url: string; local: boolean } | { kind: 'unavailable'; reason: string };

export function playbackSource(asset: AssetInfo, offline: boolean, waitReason: string): PlaybackSource {
  const local = localFileUrl(asset);
  if (local && asset.file.path) return { kind: isPlaylistCopy(asset) ? 'hls' : 'mp4', url: local, local: true };
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

/** Seconds the arrow keys move by. */
export const SEEK_STEP = 5;

/** One video's playback state, kept in step with its element, and the commands the controls and keys give. */
export class PlayerController {
  paused = $state(true);
  currentTime = $state(0);
  duration = $state(0);
  /** Seconds buffered ahead of the start (the end of the range holding the current time). */
  buffered = $state(0);
  videoWidth = $state(0);
  videoHeight = $state(0);
  ended = $state(false);
  #el: HTMLVideoElement | null = null;

  /** Follows an element until the returned function is called. */
  attach(el: HTMLVideoElement): () => void {
    this.#el = el;
    el.muted = playerPreferences.muted;
    el.volume = playerPreferences.volume;
    const sync = () => {
      this.paused = el.paused;
      this.ended = el.ended;
      this.currentTime = el.currentTime;
      this.duration = Number.isFinite(el.duration) ? el.duration : 0;
      this.videoWidth = el.videoWidth;
      this.videoHeight = el.videoHeight;
      let end = 0;
      for (let i = 0; i < el.buffered.length; i += 1) {
        if (el.buffered.start(i) <= el.currentTime + 0.5) end = Math.max(end, el.buffered.end(i));
      }
      this.buffered = end;
    };
    const volume = () => {
      playerPreferences.muted = el.muted;
      playerPreferences.volume = el.volume;
    };
    const events = [
      'play',
      'pause',
      'timeupdate',
      'durationchange',
      'loadedmetadata',
      'progress',
      'ended',
      'seeked',
      'emptied',
    ];
    events.forEach((name) => el.addEventListener(name, sync));
    el.addEventListener('volumechange', volume);
    sync();
    return () => {
      events.forEach((name) => el.removeEventListener(name, sync));
      el.removeEventListener('volumechange', volume);
      if (this.#el === el) this.#el = null;
    };
  }

  togglePlay(): void {
    const el = this.#el;
    if (!el) return;
    if (el.paused || el.ended) void el.play().catch(() => undefined);
    else el.pause();
  }

  seekTo(seconds: number): void {
    const el = this.#el;
    if (!el) return;
    const end = Number.isFinite(el.duration) ? el.duration : seconds;
    el.currentTime = Math.max(0, Math.min(end, seconds));
    this.currentTime = el.currentTime;
  }

  seekBy(seconds: number): void {
    this.seekTo((this.#el?.currentTime ?? 0) + seconds);
  }

  toggleMute(): void {
    const el = this.#el;
    if (el) el.muted = !el.muted;
    else playerPreferences.muted = !playerPreferences.muted;
  }

  setVolume(volume: number): void {
    const el = this.#el;
    const v = Math.max(0, Math.min(1, volume));
    if (el) {
      el.volume = v;
      el.muted = v === 0;
    }
  }
}

/** "1:05" for 65 s; hours when there are any. */
export function formatClock(seconds: number): string {
  const s = Math.max(0, Math.floor(Number.isFinite(seconds) ? seconds : 0));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${rest}` : `${m}:${rest}`;
}

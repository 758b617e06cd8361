// Media URLs: like a signed CDN link, an HMAC token in the path stands in for the bearer key.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ImageRecord, VideoRecord } from '../records.ts';

export const EXTENSION_OF_FORMAT = { jpeg: 'jpg', png: 'png', webp: 'webp', heic: 'heic' } as const;

export class MediaSigner {
  private readonly secret: () => string;

  constructor(secret: () => string) {
    this.secret = secret;
  }

  /** The resource is `kind/id` (e.g. `image/img_…`); the token covers everything under it. */
  token(resource: string): string {
    return createHmac('sha256', this.secret()).update(resource).digest('base64url').slice(0, 32);
  }

  verify(resource: string, token: string): boolean {
    const expected = Buffer.from(this.token(resource));
    const given = Buffer.from(token);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }
}

/** Builds absolute media URLs from the emulator's own listening address. */
export class MediaUrls {
  private readonly baseUrl: () => string;
  private readonly signer: MediaSigner;

  constructor(baseUrl: () => string, signer: MediaSigner) {
    this.baseUrl = baseUrl;
    this.signer = signer;
  }

  image(image: ImageRecord): string {
    const format = image.source.format;
    return `${this.baseUrl()}/media/${this.signer.token(`image/${image.id}`)}/image/${image.id}.${EXTENSION_OF_FORMAT[format]}`;
  }

  videoFile(videoId: string): string {
    return `${this.baseUrl()}/media/${this.signer.token(`video/${videoId}`)}/video/${videoId}.mp4`;
  }

  hlsPlaylist(videoId: string): string {
    return `${this.baseUrl()}/media/${this.signer.token(`hls/${videoId}`)}/hls/${videoId}/master.m3u8`;
  }

  /** What a video record and a job's `videos[].url` carry. */
  video(video: VideoRecord): string {
    return video.delivery === 'hls' ? this.hlsPlaylist(video.id) : this.videoFile(video.id);
  }

  /** The link of a prepared download: always a whole MP4 file, served as an attachment. */
  download(videoId: string): string {
    return `${this.videoFile(videoId)}?download=1`;
  }
}

// Pixel size, file format and credit cost of generated images and videos (the spec's silent parts, decided here).
import { publicImageOutput } from '../src-main/contract/media-size.ts';

type Body = Record<string, unknown>;

export interface ImageOutputPlan {
  width: number;
  height: number;
  format: 'png' | 'jpeg';
  /** Size tier used (public models), for the cost. */
  tier?: string;
}

/**
 * Public models: the contract's one size rule (contract/media-size.ts: imagec-2's exact resolution; the
 * other families' tier on the long edge, the short edge rounded down to a multiple of 16), so the
 * client's "about 1024 × 672" is what comes. When imageSize is omitted the first tier the model lists is
 * used. Trained models: width/height, default 1024.
 */
export function planImageOutput(modelID: string, body: Body): ImageOutputPlan {
  const output = publicImageOutput(modelID, body);
  if (!output) {
    const width = typeof body.width === 'number' ? body.width : typeof body.height === 'number' ? body.height : 1024;
    const height = typeof body.height === 'number' ? body.height : width;
    return { width, height, format: 'png' };
  }
  const size = output.size ?? { width: 1024, height: 1024 };
  return { ...size, format: output.format ?? 'jpeg', tier: output.tier };
}

const IMAGE_CREDITS: Record<string, number> = {
  imagea: 1,
  'imagea-pro': 3,
  'imagea-2': 2,
  imageb: 1,
  'imageb-4_5': 2,
  'imageb-5-lite': 1,
  'imagec-2': 2,
};

/** Credits per job: per image by model, doubled for 4K; trained models cost 1 per image. */
export function imageCredits(modelID: string, numImages: number, tier: string | undefined): number {
  return (IMAGE_CREDITS[modelID] ?? 1) * numImages * (tier === '4K' ? 2 : 1);
}

export const UPSCALE_CREDITS = 2;

const VIDEO_CREDITS_PER_SECOND: Record<string, number> = {
  'videoa-3.1': 4,
  'videoa-3.1-fast': 2,
  'videob-1.5-pro': 3,
  'videob-2.0': 3,
  'videoc-video-standard': 3,
  'videoc-video-pro': 5,
  'videoc-motion-standard': 3,
  'videoc-motion-pro': 5,
  'videod-1.5': 2,
};

export function videoCredits(modelID: string, numVideos: number, seconds: number, resolution: unknown): number {
  const factor = resolution === '1080p' ? 1.5 : 1;
  return Math.ceil((VIDEO_CREDITS_PER_SECOND[modelID] ?? 3) * seconds * numVideos * factor);
}

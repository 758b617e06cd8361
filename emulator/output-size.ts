// Pixel size, file format and credit cost of generated images and videos (the spec's silent parts, decided here).
import { PUBLIC_IMAGE_MODELS, resolveImagecSize } from '../src-main/contract/rules/index.ts';

type Body = Record<string, unknown>;

const TIER_EDGE: Record<string, number> = { '1K': 1024, '2K': 2048, '3K': 3072, '4K': 4096 };

function ratioOf(aspectRatio: string): [number, number] {
  const [a, b] = aspectRatio.split(':').map(Number);
  return a && b ? [a, b] : [1, 1];
}

const roundTo16 = (n: number): number => Math.max(16, Math.round(n / 16) * 16);

function optionGroup(body: Body, group: string): Body {
  const options = body.options;
  const settings = options && typeof options === 'object' ? (options as Body)[group] : undefined;
  return settings && typeof settings === 'object' ? (settings as Body) : {};
}

export interface ImageOutputPlan {
  width: number;
  height: number;
  format: 'png' | 'jpeg';
  /** Size tier used (public models), for the cost. */
  tier?: string;
}

/**
 * Public models: imagec-2 resolves through the shared rule; the other families put the tier on the long
 * edge (1K = 1024 px … 4K = 4096 px) and derive the short edge from aspectRatio, in multiples of 16.
 * When imageSize is omitted the first tier the model lists is used. Trained models: width/height, default 1024.
 */
export function planImageOutput(modelID: string, body: Body): ImageOutputPlan {
  const rules = (PUBLIC_IMAGE_MODELS as Record<string, { optionGroup: string; options: Record<string, unknown> }>)[
    modelID
  ];
  if (!rules) {
    const width = typeof body.width === 'number' ? body.width : typeof body.height === 'number' ? body.height : 1024;
    const height = typeof body.height === 'number' ? body.height : width;
    return { width, height, format: 'png' };
  }
  const aspectRatio = typeof body.aspectRatio === 'string' ? body.aspectRatio : '1:1';
  const settings = optionGroup(body, rules.optionGroup);
  const tierSpec = rules.options.imageSize as { values: readonly string[] } | undefined;
  const tier = typeof settings.imageSize === 'string' ? settings.imageSize : (tierSpec?.values[0] ?? '1K');
  if (rules.optionGroup === 'imagec') {
    const size = resolveImagecSize(tier, aspectRatio) ?? { width: 1024, height: 1024 };
    return { ...size, format: settings.outputFormat === 'png' ? 'png' : 'jpeg', tier };
  }
  const [a, b] = ratioOf(aspectRatio);
  const long = TIER_EDGE[tier] ?? 1024;
  const [width, height] = a >= b ? [long, roundTo16((long * b) / a)] : [roundTo16((long * a) / b), long];
  return { width, height, format: 'jpeg', tier };
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

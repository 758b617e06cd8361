// The one size rule of a generated asset before its file is seen: the pixel size, frame size and
// length its request asks for. The renderer says it beside the form, the core stores it as the
// asset's width, height and duration until the downloaded file tells the truth, and the emulator
// renders at it. Sizes come from the rules (imagec-2's exact resolution) or, where the spec is
// silent, from one reading of it: an image tier is its long edge (1K = 1024 px … 4K = 4096 px), a
// video resolution its short edge (720p = 720 px), and a derived edge is rounded down to a multiple
// of 16 for images (`floorToEdgeMultiple`, the one rounding, as imagec-2's) and to an even number
// for videos (what video encoders take).
import { PUBLIC_IMAGE_MODELS, VIDEO_MODELS, floorToEdgeMultiple, resolveImagecSize } from './rules/index.ts';

export interface PixelSize {
  width: number;
  height: number;
}

/**
 * What is known of a picture or a video: what its request asked for, the service said, or its file
 * shows; null where nothing says.
 */
export interface MediaFacts {
  width: number | null;
  height: number | null;
  durationMs: number | null;
  /** 'png' | 'jpeg' when the request names it (imagec-2's outputFormat). */
  format: string | null;
}

export const NOTHING_REQUESTED: MediaFacts = { width: null, height: null, durationMs: null, format: null };

const TIER_EDGE: Readonly<Record<string, number>> = { '1K': 1024, '2K': 2048, '3K': 3072, '4K': 4096 };

type Body = Record<string, unknown>;
const isRecord = (value: unknown): value is Body =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const positive = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : null;

/** '16:9' → { a: 16, b: 9 }; null for anything else (e.g. 'adaptive'). */
function ratioOf(value: unknown): { a: number; b: number } | null {
  const match = typeof value === 'string' ? /^(\d{1,4}):(\d{1,4})$/.exec(value) : null;
  if (!match) return null;
  const a = Number(match[1]);
  const b = Number(match[2]);
  return a > 0 && b > 0 ? { a, b } : null;
}

/** Public families other than imagec: the tier on the long edge, the short edge rounded down to 16. */
export function tierSize(tier: unknown, aspectRatio: unknown): PixelSize | null {
  const long = typeof tier === 'string' ? TIER_EDGE[tier] : undefined;
  const ratio = ratioOf(aspectRatio);
  if (!long || !ratio) return null;
  const short = (n: number) => Math.max(16, floorToEdgeMultiple(n));
  return ratio.a >= ratio.b
    ? { width: long, height: short((long * ratio.b) / ratio.a) }
    : { width: short((long * ratio.a) / ratio.b), height: long };
}

/** A video's frame from its resolution ('720p': the short edge) and ratio, edges even. */
export function videoFrameSize(resolution: unknown, aspectRatio: unknown): PixelSize | null {
  const p = typeof resolution === 'string' ? /^(\d{3,4})p$/.exec(resolution) : null;
  const ratio = ratioOf(aspectRatio);
  if (!p || !ratio) return null;
  const short = Number(p[1]);
  const even = (n: number) => Math.round(n / 2) * 2;
  return ratio.a >= ratio.b
    ? { width: even((short * ratio.a) / ratio.b), height: short }
    : { width: short, height: even((short * ratio.b) / ratio.a) };
}

const groupOf = (body: Body, group: string): Body => {
  const options = body['options'];
  const settings = isRecord(options) ? options[group] : undefined;
  return isRecord(settings) ? settings : {};
};

const defaultOf = (spec: unknown): unknown => (isRecord(spec) ? spec['default'] : undefined);

/** A public image model's output: its size (imagec-2 exact, others by tier), the tier used and the format. */
export function publicImageOutput(
  modelID: string,
  body: Body,
): { size: PixelSize | null; tier: string; format: 'png' | 'jpeg' | null } | null {
  if (!Object.hasOwn(PUBLIC_IMAGE_MODELS, modelID)) return null;
  const rules = PUBLIC_IMAGE_MODELS[modelID as keyof typeof PUBLIC_IMAGE_MODELS];
  const aspectRatio = typeof body['aspectRatio'] === 'string' ? body['aspectRatio'] : '1:1';
  const settings = groupOf(body, rules.optionGroup);
  const tierSpec = (rules.options as Body)['imageSize'];
  const values = isRecord(tierSpec) && Array.isArray(tierSpec['values']) ? (tierSpec['values'] as string[]) : [];
  const tier = typeof settings['imageSize'] === 'string' ? settings['imageSize'] : (values[0] ?? '1K');
  if (rules.optionGroup === 'imagec') {
    return {
      size: resolveImagecSize(tier, aspectRatio),
      tier,
      format: settings['outputFormat'] === 'png' ? 'png' : 'jpeg',
    };
  }
  return { size: tierSize(tier, aspectRatio), tier, format: null };
}

function requestedVideo(body: Body): MediaFacts {
  const modelID = typeof body['modelID'] === 'string' ? body['modelID'] : '';
  const rules = Object.hasOwn(VIDEO_MODELS, modelID) ? VIDEO_MODELS[modelID as keyof typeof VIDEO_MODELS] : null;
  const settings = rules ? groupOf(body, rules.optionGroup) : {};
  const table = (rules?.options ?? {}) as Body;
  const value = (key: string) => settings[key] ?? defaultOf(table[key]);
  const seconds = positive(value('duration'));
  const frame = videoFrameSize(value('resolution'), value('aspectRatio') ?? value('ratio'));
  return {
    width: frame?.width ?? null,
    height: frame?.height ?? null,
    durationMs: seconds ? Math.round(seconds * 1000) : null,
    format: null,
  };
}

/**
 * What a request (as stored with its asset: the body sent, with its modelID) says its output will
 * be. An upscale's request names only its source, so it says nothing; a trained model's says what
 * width and height it gave.
 */
export function requestedMedia(kind: 'image' | 'video', request: unknown): MediaFacts {
  if (!isRecord(request)) return NOTHING_REQUESTED;
  if (kind === 'video') return requestedVideo(request);
  const modelID = typeof request['modelID'] === 'string' ? request['modelID'] : '';
  const output = publicImageOutput(modelID, request);
  if (output) return { ...NOTHING_REQUESTED, ...output.size, format: output.format };
  const width = positive(request['width']);
  const height = positive(request['height']);
  return width && height
    ? { ...NOTHING_REQUESTED, width: Math.round(width), height: Math.round(height) }
    : NOTHING_REQUESTED;
}

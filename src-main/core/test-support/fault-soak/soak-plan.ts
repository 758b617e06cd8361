// The fault soak's submissions, from a seed: images over every public image model, videos over
// every video model (both read from contract/rules, never listed here), upscales of images made
// earlier in the run, spread over a span of time. Every request is told apart by its prompt (or,
// for an upscale, its source image), which is how the checks know which request made which job.
import { PUBLIC_IMAGE_MODEL_IDS, VIDEO_MODEL_IDS } from '../../../contract/rules/index.ts';

export interface SoakMixSize {
  images: number;
  videos: number;
  upscales: number;
  /** Submissions are spread over this many ms (of the emulator's clock) from the start. */
  spanMs: number;
}

/** Where a burst of submissions lands (share of the span): the soak's kill holds their answers. */
export const BURST_AT_SHARE = 0.5;
/** A burst: this many submissions 120 ms apart (a user pressing Generate on several forms at once). */
const BURST_SIZE = 4;

export type PlannedSubmission =
  | { n: number; atMs: number; kind: 'image' | 'video'; body: Record<string, unknown> }
  /** An upscale of an image this run made: the planned source, or the earliest finished one not yet upscaled. */
  | { n: number; atMs: number; kind: 'upscale'; sourceN: number };

/** The run: 67 images, 25 videos, 8 upscales over 150 s. */
export const FULL_SOAK: SoakMixSize = { images: 67, videos: 25, upscales: 8, spanMs: 150_000 };

/** A small mix for CI: every model still appears at least once. */
export const CI_SOAK: SoakMixSize = {
  images: PUBLIC_IMAGE_MODEL_IDS.length * 2,
  videos: VIDEO_MODEL_IDS.length,
  upscales: 2,
  spanMs: 72_000,
};

const SUBJECTS = [
  'a koi pond from above',
  'a lighthouse at dawn',
  'a fox in fresh snow',
  'rain on a tram window',
  'a bowl of ripe figs',
  'city lights from a hill',
  'an old map on oak',
  'a paper boat in a puddle',
];

/** mulberry32, so a plan is the same on every machine for one seed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The prompt that names submission n of a run: unique, so the service's records tell which request it was. */
export const soakPrompt = (seed: number, n: number, subject: string): string =>
  `soak ${seed}-${String(n).padStart(3, '0')}: ${subject}`;

export function planSoak(seed: number, size: SoakMixSize): PlannedSubmission[] {
  const next = random(seed);
  const kinds: ('image' | 'video' | 'upscale')[] = [
    ...Array<'image'>(size.images).fill('image'),
    ...Array<'video'>(size.videos).fill('video'),
  ];
  // Shuffle images and videos together; upscales go into the later half, after images can have finished.
  for (let i = kinds.length - 1; i > 0; i -= 1) {
    const j = Math.floor(next() * (i + 1));
    [kinds[i], kinds[j]] = [kinds[j]!, kinds[i]!];
  }
  for (let u = 0; u < size.upscales; u += 1) {
    const at = Math.floor(kinds.length / 2 + next() * (kinds.length / 2));
    kinds.splice(at, 0, 'upscale');
  }
  const total = kinds.length;
  // The first submissions due after the burst point are pulled together into the burst.
  const burstAt = BURST_AT_SHARE * size.spanMs;
  let burstLeft = BURST_SIZE;
  let imageCount = 0;
  let videoCount = 0;
  const imageNs: number[] = [];
  return kinds.map((kind, n) => {
    // Evenly spread, with a little seeded jitter, so submissions overlap polls, faults and the kill.
    let atMs = Math.round(((n + next() * 0.8) / total) * size.spanMs);
    if (atMs >= burstAt && burstLeft > 0 && kind !== 'upscale') {
      atMs = Math.round(burstAt) + 100 + (BURST_SIZE - burstLeft) * 120;
      burstLeft -= 1;
    }
    if (kind === 'upscale') {
      const sourceN = imageNs[Math.floor(next() * Math.max(1, imageNs.length / 2))] ?? 0;
      return { n, atMs, kind, sourceN };
    }
    const subject = SUBJECTS[Math.floor(next() * SUBJECTS.length)]!;
    const prompt = soakPrompt(seed, n, subject);
    if (kind === 'image') {
      const modelID = PUBLIC_IMAGE_MODEL_IDS[imageCount % PUBLIC_IMAGE_MODEL_IDS.length]!;
      imageCount += 1;
      imageNs.push(n);
      // One or two images: counts are what the job list reveals about an unanswered request.
      return { n, atMs, kind, body: { modelID, prompt, numImages: next() < 0.3 ? 2 : 1 } };
    }
    const modelID = VIDEO_MODEL_IDS[videoCount % VIDEO_MODEL_IDS.length]!;
    videoCount += 1;
    return { n, atMs, kind, body: { modelID, prompt } };
  });
}

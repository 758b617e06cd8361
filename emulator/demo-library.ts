// The demo account's lived-in library: a week of jobs across the public image and video models,
// two trained models with their training photos and results, a few failures, all with credits;
// made by the emulator's own factories (jobs, output plans, credits, the renderer draws the pixels
// on first fetch). Seeded: the same library every time, placed relative to `now`. Records carry
// `data.demo` hints (favourite, collections, the trained model's name) that the app turns into its
// local favourites, collections and labels when it opens the demo (core/library/demo-organize.ts).
import { PUBLIC_IMAGE_MODELS } from '../src-main/contract/rules/index.ts';
import type { EmulatorContext } from './context.ts';
import { createJob } from './job-factory.ts';
import { outputImage } from './output-image.ts';
import { imageCredits, planImageOutput, videoCredits } from './output-size.ts';
import { SeededRandom } from './random.ts';
import type { RenderSpec } from './media/image-render.ts';
import type { ImageRecord, JobRecord, ModelRecord, VideoRecord } from './records.ts';

const HOUR = 3600_000;
const DAY = 24 * HOUR;
export const DEMO_LIBRARY_SEED = 20_260_101;
/** About the first screen and a half of the Library. */
const WARM_RENDERS = 36;

export interface DemoHints {
  favorite?: boolean;
  collections?: string[];
  /** On a trained model's photos: the name the app shows for the model. */
  modelLabel?: string;
}

interface Theme {
  collection?: string;
  prompts: string[];
}

const THEMES: Theme[] = [
  {
    collection: 'Coastlines',
    prompts: [
      'a lighthouse on a basalt cliff at dusk, long exposure sea',
      'fishing boats in a harbor at dawn, soft mist',
      'a wooden pier in a winter storm, dramatic waves',
      'turquoise cove seen from above, white sand, midday',
      'sea stacks at golden hour, warm backlight',
      'a red lighthouse under the milky way',
    ],
  },
  {
    collection: 'Product shots',
    prompts: [
      'a copper teapot on a marble table, studio light',
      'white sneakers floating on a pastel background',
      'a perfume bottle with water droplets, macro',
      'a ceramic mug on linen, morning window light',
      'a leather watch on slate, top down',
    ],
  },
  {
    prompts: [
      'a neon street in the rain at night, cinematic',
      'a fox curled up in fresh snow',
      'an overgrown greenhouse full of ferns',
      'a watercolor map of an imaginary island',
      'a cozy reading nook with a cat, warm lamp light',
      'an astronaut tending a tiny garden on the moon',
      'mountain lake at sunrise, mirror reflection',
      'a bowl of ramen, steam, top down, dark background',
      'a vintage tram climbing a hill in Lisbon',
      'paper lanterns over a night market',
    ],
  },
];

const VIDEO_PROMPTS = [
  { prompt: 'slow waves rolling onto a pebble beach', collection: 'Coastlines' },
  { prompt: 'a lighthouse beam sweeping through fog', collection: 'Coastlines' },
  { prompt: 'a teapot pouring tea in slow motion', collection: 'Product shots' },
  { prompt: 'time-lapse of clouds over a mountain ridge' },
  { prompt: 'a paper boat drifting down a rainy gutter' },
  { prompt: 'a drone flight over autumn forest' },
  { prompt: 'city lights blurring past a train window' },
];

const VIDEO_MODELS = ['videoa-3.1', 'videoa-3.1-fast', 'videob-2.0', 'videoc-video-standard', 'videod-1.5'];
const PRESETS = ['', '', '', 'cinematic', 'photo'];
const RATIOS = ['1:1', '16:9', '3:4', '4:3', '9:16'];

const TRAINED = [
  {
    label: 'Maya — portraits',
    type: 'person',
    file: 'maya',
    photos: 14,
    prompts: [
      'Maya in a sunlit cafe, portrait',
      'Maya hiking at golden hour',
      'Maya as a 1920s film star, black and white',
      'Maya reading on a train',
    ],
  },
  {
    label: 'Studio ceramics',
    type: 'product',
    file: 'ceramic',
    photos: 12,
    prompts: ['the vase on a terrazzo shelf', 'the bowl with lemons, hard light', 'the cup in a snowy window'],
  },
];

export interface DemoLibrarySummary {
  /** The newest results' pictures: rendered ahead (in the background) so the first screen comes fast. */
  warm: RenderSpec[];
  images: number;
  videos: number;
  jobs: number;
  trainedModels: number;
  favorites: number;
}

/** Fills one user's account; does nothing when it already holds any record (a restart keeps what is there). */
export function seedDemoLibrary(
  ctx: EmulatorContext,
  ownerId: string,
  options: { now: number; seed?: number },
): DemoLibrarySummary | null {
  const { store } = ctx;
  if (
    [...store.images.values()].some((i) => i.ownerId === ownerId) ||
    store.modelsOf(ownerId).some((m) => !m.builtIn)
  ) {
    return null;
  }
  const rng = new SeededRandom(options.seed ?? DEMO_LIBRARY_SEED);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rng.next() * items.length)] as T;
  // Just under a week, ending an hour ago: every job of the history has finished by now, and all
  // of it lies inside one 7-day GET /jobs window (the app's sync finds public-model results there).
  const span = 7 * DAY - 3 * HOUR;
  const start = options.now - HOUR - span;
  const summary: DemoLibrarySummary = { warm: [], images: 0, videos: 0, jobs: 0, trainedModels: 0, favorites: 0 };
  let favoritesLeft = 14;

  const hints = (collection: string | undefined): DemoHints => {
    const favorite = favoritesLeft > 0 && rng.next() < 0.12;
    if (favorite) {
      favoritesLeft -= 1;
      summary.favorites += 1;
    }
    return { ...(favorite ? { favorite } : {}), ...(collection ? { collections: [collection] } : {}) };
  };

  const imageJob = (
    modelID: string,
    body: Record<string, unknown>,
    at: number,
    collection?: string,
    failure?: string,
  ) => {
    const plan = planImageOutput(modelID, body);
    const numImages = typeof body['numImages'] === 'number' ? body['numImages'] : 1;
    const job = createJob(
      ctx,
      {
        ownerId,
        kind: 'image',
        modelID,
        credits: imageCredits(modelID, numImages, plan.tier),
        ...(failure ? { failure } : {}),
      },
      at,
    );
    summary.jobs += 1;
    if (job.outcome !== 'success') return job;
    const seed = typeof body['seed'] === 'number' ? body['seed'] : rng.int(0, 2 ** 31);
    for (let i = 0; i < numImages; i += 1) {
      const image = outputImage({
        id: store.newId('img'),
        ownerId,
        modelID,
        job,
        plan,
        renderPrompt: String(body['prompt'] ?? ''),
        seed: seed + i,
        request: body,
        extra: { demo: hints(collection) },
      });
      store.images.set(image.id, image);
      job.outputIds.push(image.id);
      summary.images += 1;
    }
    return job;
  };

  // Public image models over the week, a few jobs a day, newest last.
  const publicModels = Object.keys(PUBLIC_IMAGE_MODELS);
  const imageJobs = 60;
  for (let n = 0; n < imageJobs; n += 1) {
    const theme = pick(THEMES);
    const at = start + Math.floor(((n + rng.next()) / imageJobs) * span);
    const modelID = pick(publicModels);
    const preset = pick(PRESETS);
    const body: Record<string, unknown> = {
      modelID,
      prompt: pick(theme.prompts),
      aspectRatio: pick(RATIOS),
      numImages: rng.int(1, 4),
      ...(preset ? { preset } : {}),
    };
    // Two honest failures in the history.
    const failure = n === 9 || n === 33 ? 'Generation failed: the service was busy, please try again' : undefined;
    imageJob(modelID, body, at, theme.collection, failure);
  }

  // Videos: mp4 and HLS alternate, as the service answers them.
  for (let n = 0; n < 24; n += 1) {
    const { prompt, collection } = VIDEO_PROMPTS[n % VIDEO_PROMPTS.length] ?? { prompt: 'waves' };
    const modelID = pick(VIDEO_MODELS);
    const at = start + Math.floor(((n + rng.next()) / 24) * span);
    const seconds = pick([4, 6, 8]);
    const job: JobRecord = createJob(
      ctx,
      { ownerId, kind: 'video', modelID, credits: videoCredits(modelID, 1, seconds, '720p') },
      at,
    );
    summary.jobs += 1;
    const orientation = rng.next() < 0.25 ? 'portrait' : 'landscape';
    const video: VideoRecord = {
      id: store.newId('vid'),
      ownerId,
      jobId: job.id,
      modelID,
      type: 'text-to-video',
      createdAt: job.finishAt,
      delivery: store.nextVideoJobIndex() % 2 === 0 ? 'hls' : 'mp4',
      orientation,
      data: {
        jobId: job.id,
        prompt,
        durationSeconds: seconds,
        orientation,
        request: { modelID, prompt },
        demo: hints(collection),
      },
    };
    store.videos.set(video.id, video);
    job.outputIds.push(video.id);
    summary.videos += 1;
  }

  // Two trained models: photos uploaded, a training run early in the week, then results.
  TRAINED.forEach((trained, index) => {
    const created = start + (index + 0.2) * DAY;
    const model: ModelRecord = {
      id: store.newId('mdl'),
      ownerId,
      modelType: trained.type,
      builtIn: false,
      createdAt: created,
      updatedAt: created,
    };
    for (let p = 1; p <= trained.photos; p += 1) {
      const fileName = `${trained.file}-${String(p).padStart(2, '0')}.jpg`;
      const photo: ImageRecord = {
        id: store.newId('img'),
        ownerId,
        modelID: model.id,
        type: 'modelInput',
        createdAt: created + p * 20_000,
        updatedAt: created + p * 20_000,
        source: {
          kind: 'render',
          format: 'jpeg',
          width: 768,
          height: 1024,
          prompt: `${trained.label}: training photo ${p}`,
          seed: index * 100 + p,
          caption: fileName,
        },
        data: { fileName, format: 'jpeg', width: 768, height: 1024, demo: { modelLabel: trained.label } },
      };
      store.images.set(photo.id, photo);
    }
    const training = createJob(ctx, { ownerId, kind: 'training', modelID: model.id, credits: 25 }, created + HOUR);
    summary.jobs += 1;
    model.trainingJobId = training.id;
    model.updatedAt = training.createdAt;
    store.putModel(model);
    summary.trainedModels += 1;
    for (let n = 0; n < 7; n += 1) {
      const at = training.finishAt + HOUR + Math.floor(rng.next() * (options.now - training.finishAt - 2 * HOUR));
      imageJob(
        model.id,
        {
          modelID: model.id,
          prompt: pick(trained.prompts),
          numImages: rng.int(1, 2),
          seed: rng.int(1, 99_999),
          width: 768,
          height: 960,
        },
        at,
      );
    }
  });

  summary.warm = [...store.images.values()]
    .filter((i) => i.ownerId === ownerId && i.type === 'output')
    .sort((a, b) => b.createdAt - a.createdAt)
    .slice(0, WARM_RENDERS)
    .flatMap((i) => (i.source.kind === 'render' ? [i.source] : []));
  store.changed();
  return summary;
}

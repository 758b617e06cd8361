// generate image | generate video: flags → a body in the shape the service takes, the shared
// rules, then the core's outbox (and optionally the engine and the library).
import type { Command, CommandInput } from '../command.ts';
import {
  DOWNLOAD_OPTION,
  OVER_BUDGET_OPTION,
  WAIT_OPTION,
  bool,
  flag,
  list,
  repeated,
  string,
  text,
} from '../command.ts';
import { PUBLIC_IMAGE_MODEL_IDS, VIDEO_MODEL_IDS } from '../../contract/rules/index.ts';
import { buildImageBody, buildVideoBody, type Built } from '../../contract/batch/request-flags.ts';
import { refusal, submitJob } from '../job-flow.ts';
import { usageError } from '../exit-codes.ts';

function requireModel(input: CommandInput): string {
  const model = text(input, 'model');
  if (!model || model.trim() === '')
    throw usageError('--model is required: a public model id or one of your trained models.', 'modelID');
  return model.trim();
}

const followChoices = (input: CommandInput) => ({
  wait: bool(input, 'wait'),
  download: bool(input, 'download'),
  overBudget: bool(input, 'over-budget'),
});

const bodyOf = (built: Built): Record<string, unknown> => {
  if (!built.ok) throw refusal(built.problems);
  return built.body;
};

const OPTION_HELP =
  "A setting of the model's option group, KEY=VALUE (e.g. imageSize=2K, safetyFilterLevel=BLOCK_ONLY_HIGH, outputFormat=png); numbers and true/false are typed as the model's rules say.";

export const generateImage: Command = {
  words: ['generate', 'image'],
  summary: 'Start an image generation job (public model families or your trained models).',
  options: {
    model: string(`Model id: ${PUBLIC_IMAGE_MODEL_IDS.join(', ')}, or a trained model.`, 'M'),
    prompt: string('Text prompt.', 'P'),
    preset: string('Preset tag (see `atelier presets`).', 'TAG'),
    'aspect-ratio': string('Aspect ratio of public models, e.g. 16:9.', 'R'),
    'num-images': string('How many images (1–4).', 'N'),
    'reference-url': repeated('Public image URL to guide a public model.', 'URL'),
    'input-image': string('Uploaded reference image (auxiliaryType) for a trained model.', 'ID'),
    width: string('Width in pixels (trained models).', 'W'),
    height: string('Height in pixels (trained models).', 'H'),
    steps: string('Generation steps (trained models).', 'S'),
    seed: string('Seed for repeatable outputs (trained models).', 'N'),
    'run-type': string('Run mode (trained models).', 'T'),
    'enhance-face': flag('Face enhancement (trained models).'),
    'style-strength': string('How strongly the reference image counts, 0–1 (trained models).', 'X'),
    option: repeated(OPTION_HELP, 'KEY=VALUE'),
    wait: WAIT_OPTION,
    download: DOWNLOAD_OPTION,
    'over-budget': OVER_BUDGET_OPTION,
  },
  details:
    'A request the rules refuse is not sent: each problem is printed on its own line naming the field, exit code 2.',
  async run(ctx, input) {
    const body = bodyOf(
      buildImageBody({
        model: requireModel(input),
        prompt: text(input, 'prompt'),
        preset: text(input, 'preset'),
        aspectRatio: text(input, 'aspect-ratio'),
        numImages: text(input, 'num-images'),
        referenceUrls: list(input, 'reference-url'),
        inputImage: text(input, 'input-image'),
        width: text(input, 'width'),
        height: text(input, 'height'),
        steps: text(input, 'steps'),
        seed: text(input, 'seed'),
        runType: text(input, 'run-type'),
        enhanceFace: bool(input, 'enhance-face'),
        styleStrength: text(input, 'style-strength'),
        options: list(input, 'option'),
      }),
    );
    await submitJob(ctx, 'image', body, followChoices(input));
  },
};

export const generateVideo: Command = {
  words: ['generate', 'video'],
  summary: 'Start a video generation job.',
  options: {
    model: string(`Video model: ${VIDEO_MODEL_IDS.join(', ')}.`, 'M'),
    prompt: string('Text prompt (required).', 'P'),
    'num-videos': string('How many videos.', 'N'),
    'reference-image': repeated(
      'Reference image as ROLE=URL, ROLE one of first_frame, last_frame, reference_image.',
      'ROLE=URL',
    ),
    'reference-video': repeated('Reference video URL.', 'URL'),
    element: repeated('Element id (models that take elements).', 'ID'),
    option: repeated(
      "A setting of the model's option group, KEY=VALUE (e.g. duration=6, resolution=1080p, generateAudio=true).",
      'KEY=VALUE',
    ),
    wait: WAIT_OPTION,
    download: DOWNLOAD_OPTION,
    'over-budget': OVER_BUDGET_OPTION,
  },
  details:
    'A request the rules refuse is not sent: each problem is printed on its own line naming the field, exit code 2.',
  async run(ctx, input) {
    const body = bodyOf(
      buildVideoBody({
        model: requireModel(input),
        prompt: text(input, 'prompt'),
        numVideos: text(input, 'num-videos'),
        referenceImages: list(input, 'reference-image'),
        referenceVideos: list(input, 'reference-video'),
        elements: list(input, 'element'),
        options: list(input, 'option'),
      }),
    );
    await submitJob(ctx, 'video', body, followChoices(input));
  },
};

export const upscale: Command = {
  words: ['upscale'],
  summary: 'Start an upscaling job for one of your images.',
  positionals: [{ name: 'IMAGE_ID', required: true }],
  options: { wait: WAIT_OPTION, download: DOWNLOAD_OPTION, 'over-budget': OVER_BUDGET_OPTION },
  async run(ctx, input) {
    const imageID = String(input.args['IMAGE_ID'] ?? '');
    await submitJob(ctx, 'upscale', { imageID }, followChoices(input));
  },
};

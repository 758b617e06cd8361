// Every command of the CLI, in the order help lists them.
import type { Command } from '../command.ts';
import { batch } from './batch.ts';
import { generateImage, generateVideo, upscale } from './generate.ts';
import { jobsCommands } from './jobs.ts';
import { libraryCommands } from './library.ts';
import { mediaCommands } from './media.ts';
import { modelsCommands } from './models.ts';
import { show } from './show.ts';
import { upload } from './upload.ts';
import { watch } from './watch.ts';

export const ALL_COMMANDS: readonly Command[] = [
  ...modelsCommands,
  upload,
  generateImage,
  generateVideo,
  upscale,
  batch,
  ...jobsCommands,
  ...mediaCommands,
  ...libraryCommands,
  show,
  watch,
];

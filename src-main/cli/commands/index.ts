// Every command of the CLI, in the order help lists them.
import type { Command } from '../command.ts';

export const ALL_COMMANDS: readonly Command[] = [];

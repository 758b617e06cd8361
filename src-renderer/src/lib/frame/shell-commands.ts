// What each native menu command (the core's 'shell:command' event) does in the renderer: the view it opens.
import type { ShellCommandInfo } from '@contract/ipc/shell.ts';
import type { View } from '../state/router.svelte.ts';

export type ShellCommand = ShellCommandInfo['command'];

/** Every command the contract lists: a new one fails the type check until it has its place here. */
export const SHELL_COMMAND_VIEWS: Readonly<Record<ShellCommand, View>> = {
  'open-settings': 'settings',
};

/** The view a command opens; null for anything else (e.g. a command of a newer core). */
export function viewForShellCommand(command: unknown): View | null {
  if (typeof command !== 'string' || !Object.hasOwn(SHELL_COMMAND_VIEWS, command)) return null;
  return SHELL_COMMAND_VIEWS[command as ShellCommand];
}

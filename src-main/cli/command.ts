// What a command is: its words, options (node:util parseArgs configs plus a help line each),
// positional arguments and the run function, and what a running command receives.
import type { Output } from './output.ts';
import type { GlobalChoices, Session } from './session.ts';

export interface OptionSpec {
  type: 'string' | 'boolean';
  short?: string;
  multiple?: boolean;
  /** Placeholder shown in help for string options, e.g. 'ID'. */
  value?: string;
  help: string;
}

export interface PositionalSpec {
  name: string;
  required?: boolean;
  /** Takes every remaining argument (FILE…). */
  variadic?: boolean;
}

export type OptionValues = Record<string, string | boolean | string[] | boolean[] | undefined>;

export interface CommandInput {
  values: OptionValues;
  /** By name; a variadic positional is an array. */
  args: Record<string, string | string[] | undefined>;
}

export interface CliContext {
  out: Output;
  env: NodeJS.ProcessEnv;
  globals: GlobalChoices;
  /** Opens the core once (lazily: a usage error never touches the data folder). */
  session(): Promise<Session>;
  /** Aborted on SIGINT/SIGTERM: long waits stop cleanly. */
  signal: AbortSignal;
}

export interface Command {
  /** Words after `atelier`, e.g. ['models', 'list']. */
  words: readonly string[];
  summary: string;
  /** Extra help text after the options. */
  details?: string;
  options?: Readonly<Record<string, OptionSpec>>;
  positionals?: readonly PositionalSpec[];
  /** True for `watch`: the app's Auto-download setting applies (other commands download only when asked). */
  followsAutoDownload?: boolean;
  run(ctx: CliContext, input: CommandInput): Promise<void>;
}

export const string = (help: string, value = 'VALUE', extra: Partial<OptionSpec> = {}): OptionSpec => ({
  type: 'string',
  help,
  value,
  ...extra,
});
export const flag = (help: string, extra: Partial<OptionSpec> = {}): OptionSpec => ({
  type: 'boolean',
  help,
  ...extra,
});
export const repeated = (help: string, value = 'VALUE'): OptionSpec => ({
  type: 'string',
  multiple: true,
  help,
  value,
});

export const WAIT_OPTION = flag(
  'Follow the job to its end with the background engine (same intervals, batching and backoff).',
);
export const DOWNLOAD_OPTION = flag('Put the outputs in the library (implies --wait) and print their paths.');
export const OVER_BUDGET_OPTION = flag(
  'Send it even though its estimate would pass your daily or monthly credit cap (without it such a request is refused, exit code 2).',
);

/** Typed readers of parsed option values. */
export const text = (input: CommandInput, name: string): string | undefined => {
  const value = input.values[name];
  return typeof value === 'string' ? value : undefined;
};
export const list = (input: CommandInput, name: string): string[] => {
  const value = input.values[name];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
};
export const bool = (input: CommandInput, name: string): boolean => input.values[name] === true;
export const arg = (input: CommandInput, name: string): string => {
  const value = input.args[name];
  return typeof value === 'string' ? value : '';
};

// Turns argv into a command and its validated inputs with node:util parseArgs: the command is
// found from the leading words, then the whole line is parsed strictly with the global options
// plus that command's own, so a misspelt option is refused (exit 2) instead of ignored.
import { parseArgs } from 'node:util';
import type { Command, CommandInput, OptionSpec, OptionValues } from './command.ts';
import { usageError } from './exit-codes.ts';

export const GLOBAL_OPTIONS: Readonly<Record<string, OptionSpec>> = {
  'base-url': {
    type: 'string',
    value: 'URL',
    help: 'Service address (else ATELIER_BASE_URL, else the saved setting).',
  },
  'data-dir': { type: 'string', value: 'DIR', help: "Data folder (else ATELIER_DATA_DIR, else the app's own)." },
  json: { type: 'boolean', help: 'Print exactly one JSON document on stdout.' },
  quiet: { type: 'boolean', short: 'q', help: 'No progress or notes on stderr.' },
  help: { type: 'boolean', short: 'h', help: 'Show help for the command.' },
};

export interface ParsedLine {
  /** null: no command matched the words given (help for the nearest group is shown). */
  command: Command | null;
  /** The words that were recognised, e.g. ['models'] for `atelier models`. */
  words: string[];
  globals: { baseUrl?: string; dataDir?: string; json: boolean; quiet: boolean; help: boolean; version: boolean };
  input: CommandInput;
}

type ParseArgsOptions = Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }>;

const toParseArgs = (specs: Readonly<Record<string, OptionSpec>>): ParseArgsOptions =>
  Object.fromEntries(
    Object.entries(specs).map(([name, spec]) => [
      name,
      { type: spec.type, ...(spec.short ? { short: spec.short } : {}), ...(spec.multiple ? { multiple: true } : {}) },
    ]),
  );

const ALL_GLOBALS = { ...toParseArgs(GLOBAL_OPTIONS), version: { type: 'boolean' as const } };

/** Finds the longest run of leading words naming a command. */
function findCommand(
  commands: readonly Command[],
  words: readonly string[],
): { command: Command | null; matched: string[] } {
  let best: Command | null = null;
  for (const command of commands) {
    const fits = command.words.every((word, i) => words[i] === word);
    if (fits && (!best || command.words.length > best.words.length)) best = command;
  }
  if (best) return { command: best, matched: [...best.words] };
  // Known group words (e.g. `models` alone) still count, so help can list that group.
  const matched: string[] = [];
  for (const word of words) {
    const prefix = [...matched, word];
    if (!commands.some((command) => prefix.every((w, i) => command.words[i] === w))) break;
    matched.push(word);
  }
  return { command: null, matched };
}

function leadingWords(args: readonly string[], commands: readonly Command[]): string[] {
  // A lenient pass with every option any command knows, only to learn which words are positionals.
  const union: ParseArgsOptions = { ...ALL_GLOBALS };
  for (const command of commands) Object.assign(union, toParseArgs(command.options ?? {}));
  const { positionals } = parseArgs({ args: [...args], options: union, strict: false, allowPositionals: true });
  return positionals;
}

export function parseCommandLine(args: readonly string[], commands: readonly Command[]): ParsedLine {
  const words = leadingWords(args, commands);
  const { command, matched } = findCommand(commands, words);
  const options = { ...ALL_GLOBALS, ...toParseArgs(command?.options ?? {}) };
  let parsed: { values: Record<string, unknown>; positionals: string[] };
  try {
    parsed = parseArgs({ args: [...args], options, strict: true, allowPositionals: true });
  } catch (error) {
    throw usageError(parseErrorMessage(error));
  }
  const values = parsed.values;
  const globals = {
    json: values['json'] === true,
    quiet: values['quiet'] === true,
    help: values['help'] === true,
    version: values['version'] === true,
    ...(typeof values['base-url'] === 'string' ? { baseUrl: values['base-url'] } : {}),
    ...(typeof values['data-dir'] === 'string' ? { dataDir: values['data-dir'] } : {}),
  };
  const commandValues: OptionValues = {};
  for (const name of Object.keys(command?.options ?? {})) commandValues[name] = values[name] as OptionValues[string];
  const rest = parsed.positionals.slice(matched.length);
  const input: CommandInput = { values: commandValues, args: {} };
  if (command && !globals.help) input.args = bindPositionals(command, rest);
  else if (!command && rest.length > 0 && !globals.help) {
    const where = matched.length > 0 ? `atelier ${matched.join(' ')}` : 'atelier';
    throw usageError(`Unknown command: ${where} ${shorten(rest[0] ?? '')}. Run \`${where} --help\`.`);
  }
  return { command, words: matched, globals, input };
}

function bindPositionals(command: Command, rest: readonly string[]): Record<string, string | string[] | undefined> {
  const specs = command.positionals ?? [];
  const bound: Record<string, string | string[] | undefined> = {};
  let i = 0;
  for (const spec of specs) {
    if (spec.variadic) {
      const all = rest.slice(i);
      i = rest.length;
      if (spec.required && all.length === 0) throw usageError(`Missing ${spec.name}.`, spec.name);
      bound[spec.name] = all;
      continue;
    }
    const value = rest[i];
    i += 1;
    if (value === undefined && spec.required) throw usageError(`Missing ${spec.name}.`, spec.name);
    bound[spec.name] = value;
  }
  if (i < rest.length) throw usageError(`Unexpected argument: ${shorten(rest[i] ?? '')}.`);
  return bound;
}

/** Never echo long arguments back: a key pasted by mistake must not end up in a terminal log. */
const shorten = (text: string): string => (text.length > 24 ? `${text.slice(0, 8)}…` : text);

function parseErrorMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  // parseArgs appends advice about '--' that does not fit this CLI; keep its first sentence.
  const first = (message.split('\n')[0] ?? '').split(/\.\s/)[0] ?? '';
  const short = first.replace(/'([^'\s]{25,})'/g, (_, text: string) => `'${shorten(text)}'`);
  const hint = /'--(api-)?key'/.test(first)
    ? ' The API key is read from ATELIER_API_KEY only, never from the command line.'
    : '';
  return `${short}.${hint}`;
}

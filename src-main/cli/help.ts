// Help text: the command list, a group's commands, or one command with its options.
import type { Command, OptionSpec } from './command.ts';
import { GLOBAL_OPTIONS } from './parse.ts';

const optionLine = (name: string, spec: OptionSpec): [string, string] => {
  const short = spec.short ? `-${spec.short}, ` : '';
  const value = spec.type === 'string' ? ` ${spec.value ?? 'VALUE'}` : '';
  const more = spec.multiple ? ' (repeatable)' : '';
  return [`${short}--${name}${value}`, `${spec.help}${more}`];
};

const columns = (rows: readonly [string, string][], indent = '  '): string[] => {
  const width = Math.max(0, ...rows.map(([left]) => left.length));
  return rows.map(([left, right]) => `${indent}${left.padEnd(width)}  ${right}`);
};

export function usageOf(command: Command): string {
  const positionals = (command.positionals ?? []).map((p) => {
    const name = p.variadic ? `${p.name}…` : p.name;
    return p.required ? name : `[${name}]`;
  });
  const hasOptions = Object.keys(command.options ?? {}).length > 0;
  return ['atelier', ...command.words, ...positionals, ...(hasOptions ? ['[options]'] : [])].join(' ');
}

export function commandHelp(command: Command): string {
  const lines = [`Usage: ${usageOf(command)}`, '', command.summary];
  const options = Object.entries(command.options ?? {});
  if (options.length > 0) lines.push('', 'Options:', ...columns(options.map(([n, s]) => optionLine(n, s))));
  if (command.details) lines.push('', command.details);
  lines.push('', 'Global options:', ...columns(Object.entries(GLOBAL_OPTIONS).map(([n, s]) => optionLine(n, s))));
  return lines.join('\n');
}

export function listHelp(commands: readonly Command[], words: readonly string[]): string {
  const shown = commands.filter((c) => words.every((w, i) => c.words[i] === w));
  const title = words.length > 0 ? `atelier ${words.join(' ')}` : 'atelier';
  const lines = [
    `Usage: ${title} <command> [options]`,
    '',
    words.length === 0
      ? 'The Atelier command line: the same core, data folder and library as the app.'
      : `Commands of ${title}:`,
    '',
    ...columns(shown.map((c) => [usageOf(c).replace(/^atelier /, ''), c.summary])),
  ];
  if (words.length === 0) {
    lines.push(
      '',
      'Global options:',
      ...columns(Object.entries(GLOBAL_OPTIONS).map(([n, s]) => optionLine(n, s))),
      '',
      'The API key is read from ATELIER_API_KEY (else the key saved by the app, when this host can read it);',
      'it is never taken on the command line and never printed.',
      'Exit codes: 0 ok, 2 refused request, refused batch row or usage, 3 service error, 4 network failure,',
      '5 downloads paused (disk nearly full, paused in the app, folder moving: they resume on the next run),',
      '130 interrupted, 1 anything else.',
      `Run \`atelier <command> --help\` for a command's options.`,
    );
  }
  return lines.join('\n');
}

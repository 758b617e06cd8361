// Everything the CLI prints: results on stdout (human text, or exactly one JSON document with
// --json), and progress, notes and errors on stderr (progress and notes silenced by --quiet).
import type { ErrorInfo } from '../contract/errors.ts';
import { createProgressLine, silentProgress, type ProgressLine, type ProgressStream } from './progress.ts';

export interface OutputStreams {
  stdout: { write(text: string): unknown };
  stderr: ProgressStream;
}

export interface OutputMode {
  json: boolean;
  quiet: boolean;
}

export class Output {
  readonly json: boolean;
  readonly quiet: boolean;
  readonly #streams: OutputStreams;
  #resultWritten = false;

  constructor(streams: OutputStreams, mode: OutputMode) {
    this.#streams = streams;
    this.json = mode.json;
    this.quiet = mode.quiet;
  }

  /** The command's one result: `value` as JSON with --json, else the lines `human` gives. */
  result(value: unknown, human: () => string | readonly string[]): void {
    if (this.#resultWritten) throw new Error('A command printed two results.');
    this.#resultWritten = true;
    if (this.json) {
      this.#streams.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
      return;
    }
    const lines = human();
    const text = typeof lines === 'string' ? lines : lines.join('\n');
    if (text !== '') this.#streams.stdout.write(`${text}\n`);
  }

  get resultWritten(): boolean {
    return this.#resultWritten;
  }

  /** With --json a failure is still one document on stdout, so a script always gets JSON. */
  failure(info: ErrorInfo, lines: readonly string[]): void {
    for (const line of lines) this.#streams.stderr.write(`${line}\n`);
    if (this.json && !this.#resultWritten) {
      this.#resultWritten = true;
      this.#streams.stdout.write(`${JSON.stringify({ error: info }, null, 2)}\n`);
    }
  }

  /** A note for a person (what is happening); never part of the result. */
  note(line: string): void {
    if (!this.quiet) this.#streams.stderr.write(`${line}\n`);
  }

  /** A warning is shown even with --quiet: it changes what the user should believe. */
  warn(line: string): void {
    this.#streams.stderr.write(`warning: ${line}\n`);
  }

  progress(label: string): ProgressLine {
    return this.quiet ? silentProgress : createProgressLine(this.#streams.stderr, label);
  }
}

/** Plain aligned columns for human output; empty cells print as a dash. */
export function table(
  headers: readonly string[],
  rows: readonly (readonly (string | number | null | undefined)[])[],
): string[] {
  const cells = rows.map((row) => headers.map((_, i) => cellText(row[i])));
  const widths = headers.map((header, i) => Math.max(header.length, ...cells.map((row) => row[i]!.length)));
  const line = (values: readonly string[]) =>
    values
      .map((value, i) => (i === values.length - 1 ? value : value.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(headers), ...cells.map(line)];
}

function cellText(value: string | number | null | undefined): string {
  if (value === null || value === undefined || value === '') return '-';
  return String(value).replace(/\s+/g, ' ');
}

/** `key: value` lines for one record; nested objects as compact JSON. */
export function fields(record: Record<string, unknown>): string[] {
  return Object.entries(record)
    .filter(([, value]) => value !== undefined)
    .map(
      ([key, value]) =>
        `${key}: ${typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value)}`,
    );
}

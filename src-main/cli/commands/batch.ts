// atelier batch FILE.csv | atelier batch --prompts FILE: many generation jobs at once. The file is
// planned by contract/batch (columns = the generate flags without dashes, option:KEY, {a|b}
// wildcards), every job checked by the rules, refused rows listed as `row N: <problem>` and never
// sent. --dry-run only plans; --yes sends through the core's batch runner (the outbox, paced).
import { readFile } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { BATCH_COLUMNS, OPTION_PREFIX, type BatchCells } from '../../contract/batch/batch-columns.ts';
import type { BatchDetailInfo, BatchSourceInfo } from '../../contract/ipc/batches.ts';
import { splitPair } from '../../contract/batch/request-flags.ts';
import type { CliContext, Command, CommandInput, OptionSpec } from '../command.ts';
import { bool, flag, list, repeated, string, text } from '../command.ts';
import { CliError, EXIT, usageError } from '../exit-codes.ts';
import { planLines, planView, sentLines, sentView, totalLine, type BatchPlanView } from '../batch-view.ts';
import type { Session } from '../session.ts';

const LIST_COLUMNS = new Set(['reference-url', 'reference-image', 'reference-video', 'element']);

/** Every column but `prompt` is also a flag applied to every row (a CSV cell wins). */
const settingOptions: Record<string, OptionSpec> = Object.fromEntries(
  Object.keys(BATCH_COLUMNS)
    .filter((name) => name !== 'prompt')
    .map((name) => [
      name,
      name === 'enhance-face'
        ? flag('Face enhancement (trained models), for every row.')
        : LIST_COLUMNS.has(name)
          ? repeated(`--${name} of \`generate\`, for every row.`, 'VALUE')
          : string(
              name === 'kind'
                ? 'image (default) or video, for every row.'
                : `--${name} of \`generate\`, for every row.`,
              name === 'kind' ? 'KIND' : 'VALUE',
            ),
    ]),
);

/** The command line's settings as cells under every row. */
function sharedSettings(input: CommandInput): BatchCells {
  const cells: BatchCells = {};
  for (const name of Object.keys(settingOptions)) {
    if (name === 'enhance-face') {
      if (bool(input, name)) cells[name] = 'true';
    } else if (LIST_COLUMNS.has(name)) {
      const values = list(input, name);
      if (values.length > 0) cells[name] = values.join(' ');
    } else {
      const value = text(input, name);
      if (value !== undefined && value.trim() !== '') cells[name] = value;
    }
  }
  for (const pair of list(input, 'option')) {
    const split = splitPair(pair);
    if (!split || split[0] === '')
      throw usageError(`--option takes KEY=VALUE (e.g. imageSize=2K); you gave "${pair.slice(0, 40)}"`, '--option');
    cells[`${OPTION_PREFIX}${split[0]}`] = split[1];
  }
  return cells;
}

async function sourceOf(input: CommandInput): Promise<BatchSourceInfo & { name: string }> {
  const csv = typeof input.args['FILE'] === 'string' ? input.args['FILE'] : undefined;
  const prompts = text(input, 'prompts');
  if (csv && prompts) throw usageError('Give either FILE.csv or --prompts FILE, not both.', 'FILE');
  const path = csv ?? prompts;
  if (!path)
    throw usageError('Give a CSV file (atelier batch FILE.csv) or a list of prompts (--prompts FILE).', 'FILE');
  let content: string;
  try {
    content = await readFile(resolve(path), 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message;
    throw usageError(`Cannot read ${path}: ${reason}.`, 'FILE');
  }
  return { format: csv ? 'csv' : 'prompts', text: content, settings: sharedSettings(input), name: basename(path) };
}

/** Refused rows end the command with exit 2 after its result; stderr lists them too. */
function refusedError(view: BatchPlanView, sent: boolean): CliError {
  const count = view.refused.length;
  return new CliError(
    {
      code: 'validation',
      message: `${count} row${count === 1 ? ' was' : 's were'} refused${sent ? ' and not sent' : ''}.`,
      fields: view.refused.map((r) => ({ field: `row ${r.row}`, message: r.message })),
    },
    EXIT.usage,
  );
}

async function confirmed(ctx: CliContext, view: BatchPlanView): Promise<boolean> {
  if (ctx.out.json || !process.stdin.isTTY || !process.stderr.isTTY) return false;
  const ask = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await ask.question(`Send ${totalLine(view)}? [y/N] `, { signal: ctx.signal });
    return /^y(es)?$/i.test(answer.trim());
  } catch {
    return false;
  } finally {
    ask.close();
  }
}

/** Waits until the batch has nothing left to send and every request it sent has an answer. */
async function untilSent(ctx: CliContext, session: Session, id: number): Promise<BatchDetailInfo> {
  const progress = ctx.out.progress('sending');
  try {
    for (;;) {
      const batch = await session.call('batches:get', { id });
      const total = batch.list.filter((item) => item.state !== 'refused').length;
      progress.update(`${batch.items.sent} of ${total} sent`);
      const unanswered = batch.list.some((item) => item.state === 'sent' && item.jobState === 'submitting');
      if (batch.state !== 'running' && !unanswered) return batch;
      if (ctx.signal.aborted)
        throw new CliError(
          { code: 'internal', message: 'Stopped: the rest of the batch is sent the next time Atelier runs.' },
          EXIT.interrupted,
        );
      await new Promise((done) => setTimeout(done, 200));
    }
  } finally {
    progress.done();
  }
}

export const batch: Command = {
  words: ['batch'],
  summary: 'Plan and send many jobs from a CSV or a list of prompts ({a|b} expands to each).',
  positionals: [{ name: 'FILE' }],
  options: {
    prompts: string('A text file of prompts, one a line (blank lines and # comments skipped).', 'FILE'),
    ...settingOptions,
    option: repeated("A setting of the model's option group for every row, KEY=VALUE.", 'KEY=VALUE'),
    'dry-run': flag('Print the planned jobs, refused rows and the estimated total; send nothing.'),
    yes: flag('Send every valid job without asking (refused rows are never sent).'),
  },
  details: [
    'CSV columns are the `generate` flags without dashes (kind, model, prompt, preset, aspect-ratio,',
    'num-images, seed, …) and option:KEY (e.g. option:imageSize); rows are numbered from 1 after the',
    'header; an empty cell takes the flag given here, else the model’s default. {a|b|c} in any cell',
    'expands to one job each (\\{ \\} \\| for the characters themselves; at most 10,000 jobs).',
    'A refused row is listed as `row N: <problem>` and never sent; then the exit code is 2.',
    'Without --yes nothing is sent unless you confirm on a terminal.',
  ].join('\n'),
  async run(ctx, input) {
    const source = await sourceOf(input);
    const dryRun = bool(input, 'dry-run');
    const session = await ctx.session();
    await session.requireAccount();
    const view = planView(await session.call('batches:plan', source));
    if (dryRun || view.jobs.length === 0) {
      ctx.out.result({ ...view, sent: 0 }, () => planLines(view));
      if (view.refused.length > 0) throw refusedError(view, false);
      if (view.jobs.length === 0) throw usageError('Nothing to send: the file has no rows.', 'FILE');
      return;
    }
    if (!bool(input, 'yes') && !(await confirmed(ctx, view))) {
      ctx.out.result({ ...view, sent: 0 }, () => [
        ...planLines(view),
        'Nothing was sent: add --yes to send (no terminal to confirm on, or not confirmed).',
      ]);
      throw new CliError(
        { code: 'invalid_argument', message: 'Nothing was sent: add --yes to send these jobs.', field: '--yes' },
        EXIT.usage,
      );
    }
    const started = await session.call('batches:start', source);
    ctx.out.note(`batch ${started.id}: sending ${view.jobs.length} job${view.jobs.length === 1 ? '' : 's'}`);
    const done = await untilSent(ctx, session, started.id);
    const sent = sentView(view, done);
    ctx.out.result(sent, () => sentLines(sent));
    if (view.refused.length > 0) throw refusedError(view, true);
  },
};

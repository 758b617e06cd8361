// upload: training photos or reference images to a model. Every file goes through Core I's own
// upload checks (type, real format by magic bytes, 20 MB) first, so one bad file stops the
// command before anything is sent; then the core's upload queue sends them with progress.
import { readFile } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import type { FieldProblem } from '../../contract/rules/index.ts';
import { AppError } from '../../contract/errors.ts';
import type { UploadInfo } from '../../contract/ipc/uploads.ts';
import { UPLOAD_TYPES, type UploadType } from '../../contract/service.ts';
import { prepareUpload } from '../../core/api/upload.ts';
import { sendFileInChunks } from '../../core/uploads/send-file.ts';
import type { Command } from '../command.ts';
import { string, text } from '../command.ts';
import { CliError, EXIT, usageError } from '../exit-codes.ts';
import { holdOpen } from '../follow.ts';
import { refusal } from '../job-flow.ts';
import { table } from '../output.ts';

const isUploadType = (value: string | undefined): value is UploadType =>
  (UPLOAD_TYPES as readonly string[]).includes(value ?? '');
const isDone = (upload: UploadInfo): boolean => upload.state !== 'queued' && upload.state !== 'uploading';

export const upload: Command = {
  words: ['upload'],
  summary: 'Upload images to a model: training photos (modelInput) or reference images (auxiliaryType).',
  positionals: [{ name: 'FILE', required: true, variadic: true }],
  options: {
    model: string('The model the images belong to.', 'ID'),
    type: string('modelInput (training photo) or auxiliaryType (reference image).', 'TYPE'),
  },
  details: 'Formats: JPEG, PNG, WebP, HEIC (judged by content), at most 20 MB each, at most 20 of each type per model.',
  async run(ctx, input) {
    const model = text(input, 'model')?.trim();
    const type = text(input, 'type');
    if (!model) throw usageError('--model is required: the id of one of your models.', 'modelID');
    if (!isUploadType(type))
      throw usageError('--type must be modelInput (training photo) or auxiliaryType (reference image).', 'type');
    const files = (input.args['FILE'] as string[]).map((file) => resolve(file));

    const problems: FieldProblem[] = [];
    for (const file of files) {
      try {
        await prepareUpload({ modelID: model, type, file });
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        problems.push({ field: file, message: error.info.message });
      }
    }
    if (problems.length > 0) throw refusal(problems);

    const session = await ctx.session();
    await session.requireAccount();
    const pending = new Map<number, UploadInfo>();
    const bars = new Map<number, ReturnType<typeof ctx.out.progress>>();
    let settle = (): void => {};
    const take = (info: UploadInfo): void => {
      if (!pending.has(info.id)) return;
      pending.set(info.id, info);
      bars.get(info.id)?.update(info.state, info.progress);
      settle();
    };
    const unsubscribe = session.core.events.subscribe((event, payload) => {
      if (event === 'uploads:changed') take(payload as UploadInfo);
    });
    const release = holdOpen();
    let recheck: NodeJS.Timeout | undefined;
    let onAbort = (): void => {};
    try {
      // The core takes bytes only: the CLI reads the files it was given (checked ≤ 20 MB above).
      const fileIds: { fileId: string }[] = [];
      for (const file of files) {
        fileIds.push({ fileId: await sendFileInChunks(session.call, basename(file), await readFile(file)) });
      }
      const added = await session.call('uploads:add', { modelID: model, type, files: fileIds });
      for (const notice of added.notices) ctx.out.note(`note: ${notice}`);
      // Only what the core alone can judge (e.g. the per-type count on the service); the rest is queued.
      for (const item of added.refused) ctx.out.warn(`${item.name}: ${item.reason}`);
      for (const item of added.accepted) {
        pending.set(item.id, item);
        bars.set(item.id, ctx.out.progress(`upload ${item.fileName}`));
      }
      await new Promise<void>((done, fail) => {
        settle = () => {
          if ([...pending.values()].every(isDone)) done();
        };
        onAbort = () =>
          fail(
            new CliError(
              { code: 'internal', message: 'Stopped; queued uploads continue on the next run (`atelier watch`).' },
              EXIT.interrupted,
            ),
          );
        ctx.signal.addEventListener('abort', onAbort, { once: true });
        // Events carry progress; a look at the queue now and then covers one missed before we listened.
        recheck = setInterval(() => {
          session.call('uploads:list', { modelID: model }).then((all) => all.forEach(take), fail);
        }, 2_000);
        settle();
      });
      for (const bar of bars.values()) bar.done();
      const results = [...pending.values()];
      const report = {
        model,
        type,
        uploads: results.map((u) => ({
          file: u.fileName,
          imageId: u.imageId,
          state: u.state,
          error: u.error,
          warning: u.warning,
        })),
        refused: added.refused,
      };
      ctx.out.result(report, () =>
        ctx.out.quiet
          ? results.map((u) => u.imageId ?? '')
          : table(
              ['FILE', 'IMAGE', 'STATE', 'NOTE'],
              results.map((u) => [u.fileName, u.imageId, u.state, u.error ?? u.warning]),
            ),
      );
      const failed = results.filter((u) => u.state !== 'succeeded');
      if (failed.length > 0) {
        throw new CliError(
          { code: 'server', message: `${failed.length} upload(s) failed: ${failed[0]?.error ?? 'no reason given'}` },
          EXIT.service,
        );
      }
      if (added.refused.length > 0) {
        throw new CliError(
          {
            code: 'validation',
            message: `${added.refused.length} file(s) refused`,
            fields: added.refused.map((r) => ({ field: r.name, message: r.reason })),
          },
          EXIT.usage,
        );
      }
    } finally {
      clearInterval(recheck);
      ctx.signal.removeEventListener('abort', onAbort);
      release();
      unsubscribe();
    }
  },
};

// models list | get | create | delete | images | train: reads come from the account's cache after
// a refresh through the core's sync (so the app sees the same), training through the engine.
import type { AssetPageInfo } from '../../contract/ipc/assets.ts';
import type { ModelInfo } from '../../contract/ipc/models.ts';
import type { TrainingInfo } from '../../contract/ipc/training.ts';
import { IMAGE_LIST_FILTERS, type ImageListFilter } from '../../contract/service.ts';
import { spokenRange } from '../../contract/training-time.ts';
import { assetTable, assetView, type AssetView } from '../asset-view.ts';
import type { Command } from '../command.ts';
import { WAIT_OPTION, arg, bool, string, text } from '../command.ts';
import { CliError, EXIT, usageError } from '../exit-codes.ts';
import { followTraining } from '../follow.ts';
import { fields, table } from '../output.ts';
import { serviceClient } from '../service-access.ts';
import type { Session } from '../session.ts';

const modelTable = (models: readonly ModelInfo[]): string[] =>
  table(
    ['ID', 'NAME', 'TYPE', 'STATUS', 'TRAINING', 'PHOTOS', 'REFERENCES'],
    models.map((m) => [
      m.id,
      m.label,
      m.modelType,
      m.status,
      m.training.state,
      m.uploads.trainingImages,
      m.uploads.referenceImages,
    ]),
  );

const modelLines = (m: ModelInfo): string[] =>
  fields({
    id: m.id,
    name: m.label ?? undefined,
    modelType: m.modelType,
    status: m.status,
    usable: m.usable,
    training: m.training.state ?? undefined,
    trainingImages: m.uploads.trainingImages,
    referenceImages: m.uploads.referenceImages,
    createdAt: m.createdAt ?? undefined,
    updatedAt: m.updatedAt ?? undefined,
  });

async function refreshed(session: Session, scope: 'models' | 'all'): Promise<void> {
  await session.requireAccount();
  await session.call('sync:refresh', { scope });
}

const list: Command = {
  words: ['models', 'list'],
  summary: 'Your models (trained, free and general), refreshed from the service.',
  async run(ctx) {
    const session = await ctx.session();
    await refreshed(session, 'models');
    const models = await session.call('models:list', undefined);
    ctx.out.result(models, () => (ctx.out.quiet ? models.map((m) => m.id) : modelTable(models)));
  },
};

const get: Command = {
  words: ['models', 'get'],
  summary: 'One model, refreshed from the service.',
  positionals: [{ name: 'ID', required: true }],
  async run(ctx, input) {
    const session = await ctx.session();
    await refreshed(session, 'models');
    const model = await session.call('models:get', { id: arg(input, 'ID') });
    ctx.out.result(model, () => modelLines(model));
  },
};

const create: Command = {
  words: ['models', 'create'],
  summary: 'Create a model to train (the label is your own name for it, kept locally).',
  options: {
    'model-type': string('Kind of model, e.g. person, style, object, pet (the service decides what it accepts).', 'T'),
    label: string('Your name for the model (local only; the service has no name field).', 'L'),
  },
  async run(ctx, input) {
    const modelType = text(input, 'model-type');
    const label = text(input, 'label');
    if (label !== undefined && label.trim().length > 80) throw usageError('--label is at most 80 characters.', 'label');
    const session = await ctx.session();
    const created = await (await serviceClient(session)).createModel(modelType ? { modelType } : {});
    await session.call('sync:refresh', { scope: 'models' });
    const model = label?.trim()
      ? await session.call('models:rename', { id: created.id, label })
      : await session.call('models:get', { id: created.id });
    ctx.out.result(model, () => (ctx.out.quiet ? model.id : modelLines(model)));
  },
};

const remove: Command = {
  words: ['models', 'delete'],
  summary: 'Delete a model and all its images on the service.',
  positionals: [{ name: 'ID', required: true }],
  async run(ctx, input) {
    const id = arg(input, 'ID');
    const session = await ctx.session();
    const message = await (await serviceClient(session)).deleteModel(id);
    await session.call('sync:refresh', { scope: 'models' });
    ctx.out.result({ id, deleted: true, message }, () => (ctx.out.quiet ? id : message || `deleted ${id}`));
  },
};

const images: Command = {
  words: ['models', 'images'],
  summary: "A model's images (training photos, references, outputs), refreshed from the service.",
  positionals: [{ name: 'ID', required: true }],
  options: { type: string(`Filter: ${IMAGE_LIST_FILTERS.join(', ')} (default all).`, 'TYPE') },
  async run(ctx, input) {
    const imageType = (text(input, 'type') ?? 'all') as ImageListFilter;
    if (!IMAGE_LIST_FILTERS.includes(imageType))
      throw usageError(`--type must be one of ${IMAGE_LIST_FILTERS.join(', ')}.`, 'imageType');
    const session = await ctx.session();
    await refreshed(session, 'all');
    const modelId = arg(input, 'ID');
    await session.call('models:get', { id: modelId });
    const items: AssetView[] = [];
    let cursor: string | null = null;
    do {
      const page: AssetPageInfo = await session.call('models:images', { modelId, imageType, cursor, limit: 500 });
      items.push(...page.items.map((asset) => assetView(session, asset)));
      cursor = page.nextCursor;
    } while (cursor);
    ctx.out.result({ modelId, imageType, images: items }, () =>
      ctx.out.quiet ? items.map((a) => a.id) : assetTable(items),
    );
  },
};

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/** The engine's TrainingInfo with times as ISO 8601, like every other time the CLI prints. */
const trainingView = (info: TrainingInfo) => ({
  ...info,
  startedAt: iso(info.startedAt),
  lastCheckedAt: iso(info.lastCheckedAt),
  nextCheckAt: iso(info.nextCheckAt),
});

const train: Command = {
  words: ['models', 'train'],
  summary: 'Start training (12–20 training photos needed); --wait follows it like the app (a check every 5 minutes).',
  positionals: [{ name: 'ID', required: true }],
  options: { wait: WAIT_OPTION },
  async run(ctx, input) {
    const modelId = arg(input, 'ID');
    const session = await ctx.session();
    await session.requireAccount();
    const started = await session.call('training:start', { modelId });
    ctx.out.note(started.message);
    const final = bool(input, 'wait') ? await followTraining(ctx, session, modelId) : started;
    const view = trainingView(final);
    ctx.out.result(view, () => {
      if (ctx.out.quiet) return final.state;
      const { usualMs, ...rest } = view;
      return fields({ ...rest, usual: spokenRange(usualMs) });
    });
    if (final.state === 'failed') throw new CliError({ code: 'server', message: final.message }, EXIT.service);
  },
};

export const modelsCommands: readonly Command[] = [list, get, create, remove, images, train];

// show: one image or video of the local library with what is known of it — prompt, model, and its
// media facts (width × height or frame size, length, format, size on disk, where they came from).
import { AppError } from '../../contract/errors.ts';
import type { AssetInfo } from '../../contract/ipc/assets.ts';
import { assetView, type AssetView } from '../asset-view.ts';
import type { Command } from '../command.ts';
import { arg, string, text } from '../command.ts';
import { usageError } from '../exit-codes.ts';
import type { Session } from '../session.ts';

const FROM: Readonly<Record<NonNullable<AssetInfo['factsFrom']>, string>> = {
  request: 'as requested (the file is not read yet)',
  service: "from the service's record",
  file: 'read from the file',
};

const seconds = (ms: number): string => `${(ms / 1000).toFixed(ms % 1000 === 0 ? 0 : 2)} s`;

/** The human lines of `atelier show`. */
export function showLines(asset: AssetView): string[] {
  const lines = [`${asset.kind === 'video' ? 'Video' : 'Image'} ${asset.id}`];
  const add = (label: string, value: string | null | undefined) => {
    if (value) lines.push(`${`${label}:`.padEnd(12)}${value}`);
  };
  add('Prompt', asset.prompt);
  add('Model', asset.modelId);
  add(
    asset.kind === 'video' ? 'Frame size' : 'Dimensions',
    asset.width && asset.height ? `${asset.width} × ${asset.height}` : null,
  );
  add('Length', asset.durationMs ? seconds(asset.durationMs) : null);
  add('Format', asset.format?.toUpperCase());
  add('On disk', asset.file.state === 'downloaded' && asset.file.bytes !== null ? `${asset.file.bytes} bytes` : null);
  add('Facts', asset.factsFrom ? FROM[asset.factsFrom] : null);
  add('File', asset.path ?? asset.file.state);
  add('Created', asset.createdAt);
  return lines;
}

async function find(session: Session, id: string, kind: 'image' | 'video' | undefined): Promise<AssetInfo> {
  for (const k of kind ? [kind] : (['image', 'video'] as const)) {
    try {
      return await session.call('assets:get', { kind: k, id });
    } catch (error) {
      if (!(error instanceof AppError && error.info.code === 'not_found')) throw error;
    }
  }
  throw new AppError({
    code: 'not_found',
    field: 'id',
    message: `No ${kind ?? 'image or video'} ${id} in the library.`,
  });
}

export const show: Command = {
  words: ['show'],
  summary: 'One image or video of your library: prompt, model, size, length, format and file.',
  positionals: [{ name: 'ID', required: true }],
  options: { kind: string('image or video (when an id could be both).', 'KIND') },
  async run(ctx, input) {
    const kindText = text(input, 'kind');
    if (kindText !== undefined && kindText !== 'image' && kindText !== 'video')
      throw usageError('--kind must be image or video.', 'kind');
    const session = await ctx.session();
    await session.requireAccount();
    const view = assetView(session, await find(session, arg(input, 'ID'), kindText));
    ctx.out.result(view, () => showLines(view));
  },
};

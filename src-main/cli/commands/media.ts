// images get | delete, videos list | get | download, presets: single service records through the
// account's client, lists from the refreshed cache, downloads through the library's queue.
import type { AssetInfo, AssetPageInfo } from '../../contract/ipc/assets.ts';
import { copyFile, mkdir } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { assetTable, assetView, type AssetView } from '../asset-view.ts';
import type { Command } from '../command.ts';
import { arg, string, text } from '../command.ts';
import { CliError, EXIT } from '../exit-codes.ts';
import { downloadAll } from '../follow.ts';
import { assetKey, localPaths } from '../library-paths.ts';
import { fields, table } from '../output.ts';
import { serviceClient } from '../service-access.ts';
import type { Session } from '../session.ts';

const imagesGet: Command = {
  words: ['images', 'get'],
  summary: 'One image as the service has it (plus its local path when downloaded).',
  positionals: [{ name: 'ID', required: true }],
  async run(ctx, input) {
    const id = arg(input, 'ID');
    const session = await ctx.session();
    const image = await (await serviceClient(session)).getImage(id);
    const path = (await localPaths(session, [{ kind: 'image', id }])).get(assetKey({ kind: 'image', id })) ?? null;
    const record = { ...image, path };
    ctx.out.result(record, () => fields(record));
  },
};

const imagesDelete: Command = {
  words: ['images', 'delete'],
  summary: 'Delete an image on the service (a local copy stays until you remove it).',
  positionals: [{ name: 'ID', required: true }],
  async run(ctx, input) {
    const id = arg(input, 'ID');
    const session = await ctx.session();
    await session.requireAccount();
    const result = await session.call('library:delete-remote', { assets: [{ kind: 'image', id }] });
    const refused = result.refused[0];
    if (refused) throw new CliError({ code: 'conflict', message: refused.reason }, EXIT.service);
    ctx.out.result({ id, deleted: true }, () => (ctx.out.quiet ? id : `deleted image ${id}`));
  },
};

async function videosFromCache(session: Session): Promise<AssetInfo[]> {
  const items: AssetInfo[] = [];
  let cursor: string | null = null;
  do {
    const page: AssetPageInfo = await session.call('assets:list', { filter: { kind: 'video' }, cursor, limit: 500 });
    items.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return items;
}

const videosList: Command = {
  words: ['videos', 'list'],
  summary: 'Your finished videos, refreshed from the service.',
  options: { type: string('Only this video type (e.g. text-to-video, image-to-video); all by default.', 'T') },
  async run(ctx, input) {
    const type = text(input, 'type');
    const session = await ctx.session();
    await session.requireAccount();
    await session.call('sync:refresh', { scope: 'all' });
    const all = await videosFromCache(session);
    const videos: AssetView[] = all
      .filter((video) => !type || type === 'all' || video.type === type)
      .map((video) => assetView(session, video));
    ctx.out.result({ videos }, () => (ctx.out.quiet ? videos.map((v) => v.id) : assetTable(videos)));
  },
};

const videosGet: Command = {
  words: ['videos', 'get'],
  summary: 'One video as the service has it (plus its local path when downloaded).',
  positionals: [{ name: 'ID', required: true }],
  async run(ctx, input) {
    const id = arg(input, 'ID');
    const session = await ctx.session();
    const video = await (await serviceClient(session)).getVideo(id);
    const path = (await localPaths(session, [{ kind: 'video', id }])).get(assetKey({ kind: 'video', id })) ?? null;
    const record = { ...video, path };
    ctx.out.result(record, () => fields(record));
  },
};

const videosDownload: Command = {
  words: ['videos', 'download'],
  summary: "Download a video into the library (the service's two-step download), optionally copying it to a folder.",
  positionals: [{ name: 'ID', required: true }],
  options: { out: string('Also copy the file into this folder.', 'DIR') },
  async run(ctx, input) {
    const id = arg(input, 'ID');
    const outDir = text(input, 'out');
    const session = await ctx.session();
    await session.requireAccount();
    const ref = { kind: 'video' as const, id };
    // The library downloads what its cache knows: refresh once if this video is new to it.
    if (!(await session.core.dispatch('assets:get', ref)).ok) await session.call('sync:refresh', { scope: 'all' });
    await session.call('assets:get', ref);
    const [download] = await downloadAll(ctx, session, [ref], 'mp4');
    if (download?.state !== 'succeeded') {
      throw new CliError(download?.error ?? { code: 'server', message: `The download of video ${id} failed.` });
    }
    const libraryPath = (await localPaths(session, [ref])).get(assetKey(ref)) ?? null;
    if (!libraryPath)
      throw new CliError(
        { code: 'internal', message: `Video ${id} was downloaded but its file is missing.` },
        EXIT.failure,
      );
    let path = libraryPath;
    if (outDir) {
      const target = resolve(outDir);
      await mkdir(target, { recursive: true });
      path = join(target, basename(libraryPath));
      await copyFile(libraryPath, path);
    }
    ctx.out.result({ id, path, libraryPath }, () => path);
  },
};

const presets: Command = {
  words: ['presets'],
  summary: 'The public presets (tags for --preset), refreshed from the service.',
  async run(ctx) {
    const session = await ctx.session();
    await session.requireAccount();
    await session.call('sync:refresh', { scope: 'presets' });
    const list = await session.call('presets:list', undefined);
    ctx.out.result(list, () =>
      ctx.out.quiet
        ? list.map((p) => p.tag)
        : table(
            ['TAG', 'NAME', 'CATEGORY'],
            list.map((p) => [p.tag, p.name, p.category]),
          ),
    );
  },
};

export const mediaCommands: readonly Command[] = [
  imagesGet,
  imagesDelete,
  videosList,
  videosGet,
  videosDownload,
  presets,
];

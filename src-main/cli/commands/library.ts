// library search | list: the local library (the app's cache and files); works offline.
import type { AssetFilter, AssetPageInfo } from '../../contract/ipc/assets.ts';
import { assetTable, assetView, type AssetView } from '../asset-view.ts';
import type { Command } from '../command.ts';
import { arg, bool, flag, string, text } from '../command.ts';
import { usageError } from '../exit-codes.ts';

const kindOf = (value: string | undefined): 'image' | 'video' | undefined => {
  if (value === undefined) return undefined;
  if (value === 'image' || value === 'video') return value;
  throw usageError('--kind must be image or video.', 'kind');
};

const search: Command = {
  words: ['library', 'search'],
  summary: 'Search prompts and settings of your images and videos (best matches first).',
  positionals: [{ name: 'QUERY', required: true }],
  options: { kind: string('Only image or video.', 'KIND') },
  async run(ctx, input) {
    const kind = kindOf(text(input, 'kind'));
    const session = await ctx.session();
    await session.requireAccount();
    const found = await session.call('assets:search', {
      query: arg(input, 'QUERY'),
      ...(kind ? { kind } : {}),
      limit: 200,
    });
    const items = found.map((asset) => assetView(session, asset));
    ctx.out.result({ query: arg(input, 'QUERY'), items }, () =>
      ctx.out.quiet ? items.map((a) => a.id) : assetTable(items),
    );
  },
};

const list: Command = {
  words: ['library', 'list'],
  summary: 'Your images and videos, newest first.',
  options: { kind: string('Only image or video.', 'KIND'), offline: flag('Only what has a local copy.') },
  async run(ctx, input) {
    const kind = kindOf(text(input, 'kind'));
    const filter: AssetFilter = { ...(kind ? { kind } : {}), ...(bool(input, 'offline') ? { offline: true } : {}) };
    const session = await ctx.session();
    await session.requireAccount();
    const items: AssetView[] = [];
    let cursor: string | null = null;
    do {
      const page: AssetPageInfo = await session.call('assets:list', { filter, cursor, limit: 500 });
      items.push(...page.items.map((asset) => assetView(session, asset)));
      cursor = page.nextCursor;
    } while (cursor);
    ctx.out.result({ items }, () => (ctx.out.quiet ? items.map((a) => a.id) : assetTable(items)));
  },
};

export const libraryCommands: readonly Command[] = [search, list];

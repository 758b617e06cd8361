// Child process of scenario 5: one cold start in a fresh process, printed as one JSON line.
//   atelier: openCache (open, pragmas, migrations check, planner stats) + the first grid page
//            through the assets:list handler (rows → AssetInfo), as the app does when a library opens.
//   raw:     better-sqlite3 open + user_version read + the same page's SQL, nothing else.
// Module loading is timed apart (`importMs`): the app has its modules loaded before a library opens.
// Usage: node cold-start.ts <dbFile> atelier|raw
const [file, mode] = process.argv.slice(2);
if (!file || (mode !== 'atelier' && mode !== 'raw')) throw new Error('usage: cold-start.ts <dbFile> atelier|raw');

const PAGE = 200;
const t0 = performance.now();
let openMs: number;
let totalMs: number;
let importMs: number;
let items: number;
if (mode === 'atelier') {
  const { openCache } = await import('../../src-main/core/db/cache.ts');
  const { assetsHandlers } = await import('../../src-main/core/handlers/assets.ts');
  const { browserMediaUrl } = await import('../../src-main/core/library/library-host.ts');
  importMs = performance.now() - t0;
  const start = performance.now();
  const cache = openCache(file);
  openMs = performance.now() - start;
  const page = assetsHandlers({ cache: () => cache, mediaUrlFor: browserMediaUrl })['assets:list']({
    sort: 'newest',
    limit: PAGE,
  });
  totalMs = performance.now() - start;
  items = page.items.length;
  cache.close();
} else {
  const { default: Database } = await import('better-sqlite3');
  const { ASSET_ROW_COLUMNS } = await import('../../src-main/core/db/repos/asset-row.ts');
  importMs = performance.now() - t0;
  const start = performance.now();
  const db = new Database(file);
  db.pragma('user_version', { simple: true });
  openMs = performance.now() - start;
  const rows = db
    .prepare(`SELECT ${ASSET_ROW_COLUMNS.text} FROM assets a ORDER BY a.created_at DESC, a.seq DESC LIMIT ?`)
    .all(PAGE + 1);
  totalMs = performance.now() - start;
  items = Math.min(rows.length, PAGE);
  db.close();
}
process.stdout.write(`${JSON.stringify({ mode, totalMs, openMs, importMs, items })}\n`);

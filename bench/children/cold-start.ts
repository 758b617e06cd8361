// Child process of scenario 5: one cold start in a fresh process, printed as one JSON line.
//   atelier: openCache (open, pragmas, migrations check, planner stats) + the first grid page
//            through the assets:list handler (rows → AssetInfo), as the app does when a library opens.
//   raw:     better-sqlite3 open + user_version read + the same page's SQL, nothing else.
//   core:    the whole core as a host starts it, imports included: createCore on a data folder whose
//            account database is <dbFile> (settings, key, account, jobs engine, library host), then
//            the first page through dispatch. <dataDir> is prepared by the parent (cold-start.ts).
// Module loading is timed apart (`importMs`) for atelier/raw: the app has its modules loaded before
// a library opens. For core, totalMs counts from the process's first line.
// Usage: node cold-start.ts <dbFile> atelier|raw | node cold-start.ts <dbFile> core <dataDir> <baseUrl> <key>
const [file, mode, dataDir, baseUrl, key] = process.argv.slice(2);
if (!file || (mode !== 'atelier' && mode !== 'raw' && mode !== 'core'))
  throw new Error('usage: cold-start.ts <dbFile> atelier|raw|core [dataDir baseUrl key]');

const PAGE = 200;
const t0 = performance.now();
let openMs: number;
let totalMs: number;
let importMs: number;
let items: number;
if (mode === 'core') {
  if (!dataDir || !baseUrl || !key) throw new Error('core mode needs <dataDir> <baseUrl> <key>');
  const { createCore } = await import('../../src-main/core/core.ts');
  const { createConfStore } = await import('../../src-main/core/settings/store.ts');
  const { withRunOverrides } = await import('../../src-main/cli/settings-overlay.ts');
  importMs = performance.now() - t0;
  const start = performance.now();
  const core = await createCore({
    dataDir,
    host: { kind: 'cli', appVersion: '0.0.0-bench', chromiumVersion: null, electronVersion: null },
    store: withRunOverrides(createConfStore(dataDir), { baseUrl, autoDownload: false }),
    apiKeyOverride: key,
    logError: () => undefined,
  });
  openMs = performance.now() - start;
  const page = await core.dispatch('assets:list', { sort: 'newest', limit: PAGE });
  totalMs = performance.now() - t0;
  if (!page.ok) throw new Error(`assets:list failed: ${page.error.message}`);
  items = (page.value as { items: unknown[] }).items.length;
  await core.close();
} else if (mode === 'atelier') {
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

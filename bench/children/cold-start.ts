// Child process of scenario 5: one cold start in a fresh process, printed as one JSON line.
//   atelier: openAccountDb (open, pragmas, migrations check, planner stats) + the first grid page
//            through the assets:list handler (rows → AssetInfo), as the app does when a library opens.
//   raw:     better-sqlite3 open + user_version read + the same page's SQL, nothing else.
//   core:    the whole core as a host starts it, imports included: createCore on a data folder whose
//            account database is <dbFile> (settings, key, account, jobs engine, library host), then
//            the first page through dispatch. <dataDir> is prepared by the parent (cold-start.ts).
//   bundled: the same as core, from the core bundled as the app ships it (<bundle>, built by the
//            parent with bench/harness/core-bundle.ts): what a start of out/main costs.
// core, bundled and raw also report the process's RSS once the first page is shown and the process
// is idle (after a full GC). The child runs without --expose-gc, as the app does: that flag makes Node
// compile its own modules (node:crypto, node:fs/promises, …) without their built-in code cache,
// ~2.5× slower, which would bill the timed start for a cost no shipped start pays.
// Every mode also reports `cpuMs`: the process's CPU time (user + system, all threads) from its
// first line to the first page, which a loaded machine distorts less than the wall time.
// Module loading is timed apart (`importMs`) for atelier/raw: the app has its modules loaded before
// a library opens. For core, totalMs counts from the process's first line.
// Usage: node cold-start.ts <dbFile> atelier|raw
//        node cold-start.ts <dbFile> core <dataDir> <baseUrl> <key>
//        node cold-start.ts <dbFile> bundled <dataDir> <baseUrl> <key> <bundle>
const [file, mode, dataDir, baseUrl, key, bundle] = process.argv.slice(2);
if (!file || (mode !== 'atelier' && mode !== 'raw' && mode !== 'core' && mode !== 'bundled'))
  throw new Error('usage: cold-start.ts <dbFile> atelier|raw|core|bundled [dataDir baseUrl key [bundle]]');

interface CoreModule {
  createCore: typeof import('../../src-main/core/core.ts').createCore;
  createJsonFileStore: typeof import('../../src-main/core/settings/json-file-store.ts').createJsonFileStore;
  withRunOverrides: typeof import('../../src-main/cli/settings-overlay.ts').withRunOverrides;
}

/** A full GC, switched on only now (after the timed start): see the note at the top. */
async function fullGc(): Promise<void> {
  const { setFlagsFromString } = await import('node:v8');
  const { runInNewContext } = await import('node:vm');
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

/** RSS once idle: what the page left behind, after a full GC. */
async function idleRssMb(): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, 50));
  await fullGc();
  return process.memoryUsage().rss / 1024 / 1024;
}

const PAGE = 200;
const t0 = performance.now();
const cpu0 = process.cpuUsage();
let cpuMs = 0;
const cpuSinceStart = (): number => {
  const used = process.cpuUsage(cpu0);
  return (used.user + used.system) / 1000;
};
let openMs: number;
let totalMs: number;
let importMs: number;
let items: number;
let rssMb: number | null = null;
if (mode === 'core' || mode === 'bundled') {
  if (!dataDir || !baseUrl || !key) throw new Error(`${mode} mode needs <dataDir> <baseUrl> <key>`);
  if (mode === 'bundled' && !bundle) throw new Error('bundled mode needs <bundle>');
  const { createCore, createJsonFileStore, withRunOverrides } = (
    mode === 'bundled' ? await import(bundle!) : await import('./core-entry.ts')
  ) as CoreModule;
  importMs = performance.now() - t0;
  const start = performance.now();
  const core = await createCore({
    dataDir,
    host: { kind: 'cli', appVersion: '0.0.0-bench', chromiumVersion: null, electronVersion: null },
    store: withRunOverrides(createJsonFileStore(dataDir), { baseUrl, autoDownload: false }),
    apiKeyOverride: key,
    logError: () => undefined,
  });
  openMs = performance.now() - start;
  const page = await core.dispatch('assets:list', { sort: 'newest', limit: PAGE });
  totalMs = performance.now() - t0;
  cpuMs = cpuSinceStart();
  if (!page.ok) throw new Error(`assets:list failed: ${page.error.message}`);
  items = (page.value as { items: unknown[] }).items.length;
  rssMb = await idleRssMb();
  await core.close();
} else if (mode === 'atelier') {
  const { openAccountDb } = await import('../../src-main/core/db/account-db.ts');
  const { assetsHandlers } = await import('../../src-main/core/handlers/assets.ts');
  const { browserMediaUrl } = await import('../../src-main/core/library/library-host.ts');
  importMs = performance.now() - t0;
  const start = performance.now();
  const cache = openAccountDb(file);
  openMs = performance.now() - start;
  const page = assetsHandlers({ cache: () => cache, mediaUrlFor: browserMediaUrl })['assets:list']({
    sort: 'newest',
    limit: PAGE,
  });
  totalMs = performance.now() - start;
  cpuMs = cpuSinceStart();
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
  cpuMs = cpuSinceStart();
  items = Math.min(rows.length, PAGE);
  rssMb = await idleRssMb();
  db.close();
}
process.stdout.write(`${JSON.stringify({ mode, totalMs, openMs, importMs, cpuMs, items, rssMb })}\n`);

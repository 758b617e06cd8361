// Import rules of the layers (docs/architecture.md §Layers). `npm run lint:layers` fails on any breach.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'contract-is-pure',
      comment:
        "contract/ is pure TypeScript shared by every side: nothing of ours, no node:, no electron, only valibot (and csv-parse's browser build for batches).",
      severity: 'error',
      from: { path: '^src-main/contract/', pathNot: '\\.test\\.ts$|/test-support/' },
      // csv-parse's browser build (no node: built-ins) is named by its package subpath, which the
      // resolver may leave as written.
      to: {
        pathNot: [
          '^src-main/contract/',
          '^node_modules/valibot/',
          '^node_modules/csv-parse/dist/esm/',
          '^csv-parse/browser/esm/sync$',
        ],
      },
    },
    {
      name: 'contract-tests-are-pure',
      comment:
        'Tests of the contract (and their test-support/) run the pure code with vitest alone, fast-check for properties.',
      severity: 'error',
      from: { path: '^src-main/contract/(.*\\.test\\.ts$|test-support/)' },
      to: {
        pathNot: [
          '^src-main/contract/',
          '^node_modules/(valibot|vitest|@vitest|fast-check|csv-parse/dist/esm)/',
          // The same csv-parse build as the contract's, named as written (see contract-is-pure).
          '^csv-parse/browser/esm/sync$',
        ],
      },
    },
    {
      name: 'no-unresolvable',
      comment: 'An import the checker cannot resolve is an import it cannot judge (an alias it does not know, a typo).',
      severity: 'error',
      from: { path: '^(src-main|src-renderer|emulator)/' },
      // Our own specifiers only: compiled Svelte's internal entry points resolve in vite, not here.
      to: { couldNotResolve: true, path: '^(@contract/|\\.\\.?/)' },
    },
    {
      name: 'electron-only-in-shell-and-preload',
      comment: "Importing 'electron' outside Electron tries to download a binary and throws.",
      severity: 'error',
      from: { pathNot: ['^src-main/shell/', '^src-main/preload/', '^src-main/index\\.ts$', '^e2e/electron/'] },
      to: { path: ['node_modules/electron/', '^electron$'] },
    },
    {
      name: 'core-imports-contract-only',
      comment:
        'core/ is Node-only business logic; it may not reach into hosts (shell, preload, browser-mode, cli) or the renderer.',
      severity: 'error',
      // Tests may start the emulator; production core code may not.
      from: { path: '^src-main/core/', pathNot: '\\.test\\.ts$|/test-support/' },
      to: { path: ['^src-main/(shell|preload|browser-mode|cli)/', '^src-renderer/', '^emulator/'] },
    },
    {
      name: 'core-ground-floor',
      comment:
        "db, api, log, settings and host are the inner core's ground floor: the domains and the account layer stand on them, never the other way round.",
      severity: 'error',
      from: { path: '^src-main/core/(db|api|log|settings|host)/', pathNot: '\\.test\\.ts$|/test-support/' },
      to: {
        path: [
          '^src-main/core/(jobs|uploads|library|sync|account|handlers)/',
          '^src-main/core/(core|account-services|context|dispatch)\\.ts$',
        ],
      },
    },
    {
      name: 'db-only-database',
      comment:
        'core/db holds the database only (connection, migrations, SQL, repositories, the row types they take): of our code it imports db/, the contract and one host basic, host/disk-full.ts (SQLITE_FULL is a full disk too). DTO mapping lives in handlers/, wire parsing in api/, URL schemes and error policy in host/.',
      severity: 'error',
      from: { path: '^src-main/core/db/', pathNot: '\\.test\\.ts$|/test-support/' },
      to: {
        path: '^(src-main|src-renderer|emulator)/',
        pathNot: ['^src-main/core/db/', '^src-main/contract/', '^src-main/core/host/disk-full\\.ts$'],
      },
    },
    {
      name: 'core-domains-stand-apart',
      comment:
        'jobs, uploads, library and sync never import each other: what they share sits on the ground floor, and core/account-services.ts joins them for an account.',
      severity: 'error',
      from: { path: '^src-main/core/(jobs|uploads|library|sync)/', pathNot: '\\.test\\.ts$|/test-support/' },
      to: { path: '^src-main/core/(jobs|uploads|library|sync)/', pathNot: '^src-main/core/$1/' },
    },
    {
      name: 'library-rooms-media-and-folder-stand-below-downloads',
      comment:
        "core/library's rooms (each folder's README.md): folder/ (the library folder, paths, moves) stands on nothing of media/ or downloads/; media/ (serving, thumbnails, posters, settings in files) may use folder/ but never downloads/. downloads/ may use both.",
      severity: 'error',
      from: { path: '^src-main/core/library/(media|folder)/', pathNot: '\\.test\\.ts$' },
      to: { path: '^src-main/core/library/downloads/' },
    },
    {
      name: 'library-folder-is-the-ground',
      comment: 'core/library/folder/ holds paths and the folder itself: it imports nothing of media/.',
      severity: 'error',
      from: { path: '^src-main/core/library/folder/', pathNot: '\\.test\\.ts$' },
      to: { path: '^src-main/core/library/media/' },
    },
    {
      name: 'library-rooms-do-not-reach-the-facade',
      comment:
        'The facade (core/library/library.ts, library-host.ts) builds the rooms; the rooms never import it back.',
      severity: 'error',
      from: { path: '^src-main/core/library/(downloads|media|folder)/', pathNot: '\\.test\\.ts$' },
      to: { path: '^src-main/core/library/library(-host)?\\.ts$' },
    },
    {
      name: 'library-only-through-its-facade',
      comment:
        "Outside core/library, production code imports the library's top-level files only (the facade library-host.ts / library.ts and its small ports), never a room's file: the rooms can change inside.",
      severity: 'error',
      from: { pathNot: ['^src-main/core/library/', '\\.test\\.ts$', '/test-support/', '^bench/'] },
      to: { path: '^src-main/core/library/(downloads|media|folder)/' },
    },
    {
      name: 'preload-imports-contract-only',
      severity: 'error',
      from: { path: '^src-main/preload/' },
      to: { path: ['^src-main/(core|shell|browser-mode|cli)/', '^src-renderer/', '^emulator/'] },
    },
    {
      name: 'renderer-imports-contract-only',
      comment: 'The renderer never sees node:, electron or the core: only the contract (types and rules).',
      severity: 'error',
      from: { path: '^src-renderer/src/' },
      to: {
        path: [
          '^src-main/(core|shell|preload|browser-mode|cli)/',
          '^emulator/',
          '^node:',
          '^(fs|path|child_process|os|crypto|net|http)$',
        ],
      },
    },
    {
      name: 'renderer-state-imports-no-views',
      comment:
        "The renderer's state (lib/state/), commands (lib/commands/), menus (lib/menus/) and helpers never import a view or a Svelte component: views read them, not the other way round (plain data modules kept beside the components, such as ui/glyphs.ts or frame/nav-items.ts, may be read).",
      severity: 'error',
      from: { path: '^src-renderer/src/lib/', pathNot: '^src-renderer/src/lib/(components|views)/' },
      to: { path: ['^src-renderer/src/lib/views/', '\\.svelte$'] },
    },
    {
      name: 'emulator-imports-contract-only',
      severity: 'error',
      from: { path: '^emulator/' },
      to: { path: ['^src-main/(core|shell|preload|browser-mode|cli)/', '^src-renderer/'] },
    },
    {
      name: 'hosts-reach-the-emulator-through-demo',
      comment: 'The emulator runs inside a host only as demo mode (src-main/demo/); tests may start it.',
      severity: 'error',
      from: { path: '^src-main/(shell|preload|browser-mode|cli)/', pathNot: '\\.test\\.ts$|/test-support/' },
      to: { path: '^emulator/' },
    },
    {
      name: 'demo-is-a-leaf',
      comment: 'demo/ joins the emulator to the core; it knows no host.',
      severity: 'error',
      from: { path: '^src-main/demo/' },
      to: { path: ['^src-main/(shell|preload|browser-mode|cli)/', '^src-renderer/'] },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: { path: '^(src-main|src-renderer|emulator)/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // node_modules is not followed, but imports INTO it are judged (contract → better-sqlite3 fails).
    exclude: { path: ['^out/', '^emulator/fixtures/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.svelte', '.json'] },
    // The renderer's @contract alias (src-renderer/vite.config.ts), so what it reaches is checked.
    webpackConfig: { fileName: 'src-renderer/resolve-aliases.cjs' },
    builtInModules: { add: ['electron'] },
  },
};

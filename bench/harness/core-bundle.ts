// Bundles the core as the app ships it: electron-vite builds out/main with Vite for Node, npm
// dependencies left as imports (loaded from node_modules at run time) but for BUNDLED_IN_MAIN, no minifying, lazily
// imported modules in chunks of their own. out/main itself cannot run outside Electron (its entry
// starts the shell), so the bench bundles the core's own entry the same way into its work folder.
import { join } from 'node:path';
import { build } from 'vite';
import { BUNDLED_IN_MAIN } from '../../electron.vite.config.ts';

/** Builds bench/children/core-entry.ts into `outDir`; returns the path of the bundle's entry. */
export async function buildCoreBundle(repoRoot: string, outDir: string): Promise<string> {
  await build({
    configFile: false,
    root: repoRoot,
    logLevel: 'silent',
    build: {
      ssr: join(repoRoot, 'bench', 'children', 'core-entry.ts'),
      outDir,
      emptyOutDir: true,
      minify: false,
      target: 'node22',
      rollupOptions: { output: { format: 'es', entryFileNames: 'core.js', chunkFileNames: '[name]-[hash].js' } },
    },
    ssr: { noExternal: [...BUNDLED_IN_MAIN] },
  });
  return join(outDir, 'core.js');
}

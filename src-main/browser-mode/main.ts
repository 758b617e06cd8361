// `npm run start:browser`: starts the core in Node and serves the renderer on 127.0.0.1.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { AppError } from '../contract/errors.ts';
import { createCore } from '../core/core.ts';
import { defaultDataDir } from '../core/paths.ts';
import { startBrowserMode } from './server.ts';
import { mediaRoute } from './media-route.ts';
import { createEmulatorDemo } from '../demo/emulator-demo.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    'data-dir': { type: 'string' },
    'renderer-dir': { type: 'string', default: join(root, 'out', 'renderer') },
    /** Start straight in demo mode (the in-process emulator). */
    demo: { type: 'boolean', default: false },
  },
});

const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
const dataDir = values['data-dir'] ?? defaultDataDir();
const core = await createCore({
  dataDir,
  // Browser mode has no OS keychain: keys stay for the session unless the user opts in.
  demo: createEmulatorDemo({ dataDir }),
  apiKeyOverride: process.env.ATELIER_API_KEY ?? null,
  host: { kind: 'browser', appVersion: pkg.version, chromiumVersion: null, electronVersion: null },
}).catch((error: unknown) => {
  // A read-only data folder and the like: the core's sentence, not a stack.
  console.error(`Atelier could not start: ${error instanceof AppError ? error.info.message : String(error)}`);
  process.exit(1);
});
if (values.demo) {
  const demo = await core.dispatch('account:use-demo', undefined);
  if (!demo.ok) console.error(`Demo mode could not start: ${demo.error.message}`);
}
const server = await startBrowserMode({
  core,
  rendererDir: values['renderer-dir'],
  port: Number(values.port),
  routes: mediaRoute(core.serveMedia),
});
console.log(`Atelier (browser mode) at ${server.url}`);

let closing = false;
const shutdown = async () => {
  if (closing) return;
  closing = true;
  await server.close();
  await core.close();
  process.exit(0);
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);

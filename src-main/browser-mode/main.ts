// `npm run start:browser`: starts the core in Node and serves the renderer on 127.0.0.1.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createCore } from '../core/core.ts';
import { defaultDataDir } from '../core/paths.ts';
import { startBrowserMode } from './server.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    'data-dir': { type: 'string' },
    'renderer-dir': { type: 'string', default: join(root, 'out', 'renderer') },
  },
});

const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
const core = await createCore({
  dataDir: values['data-dir'] ?? defaultDataDir(),
  host: { kind: 'browser', appVersion: pkg.version, chromiumVersion: null, electronVersion: null },
});
const server = await startBrowserMode({ core, rendererDir: values['renderer-dir'], port: Number(values.port) });
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

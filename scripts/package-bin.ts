// Runs an npm package's command portably: the Node running this script (`process.execPath`) on
// the package's own bin file. A bare `spawn('npx', …)` fails on Windows without a shell (ENOENT:
// the command there is `npx.cmd`), and a shell would re-parse the arguments.
import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';

export const repoRoot = resolve(import.meta.dirname, '..');

const requireFromRoot = createRequire(join(repoRoot, 'package.json'));

/** The folder of an installed package, found from the repository root like `require` would. */
export function packageDir(name: string): string {
  try {
    return dirname(requireFromRoot.resolve(`${name}/package.json`));
  } catch {
    // A package whose `exports` hides package.json: look along the same node_modules folders.
    for (const base of requireFromRoot.resolve.paths(name) ?? []) {
      if (existsSync(join(base, name, 'package.json'))) return join(base, name);
    }
    throw new Error(`The package ${name} is not installed: run \`npm ci\` first.`);
  }
}

/** Absolute path of a package's bin file (`bin` may be a string or a map; default: the package's name). */
export function packageBin(name: string, command = name.replace(/^@[^/]+\//, '')): string {
  const dir = packageDir(name);
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
    bin?: string | Record<string, string>;
  };
  const relative = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin?.[command];
  if (!relative) throw new Error(`The package ${name} has no command ${command}.`);
  return join(dir, relative);
}

/** The command line that runs a package's bin: [process.execPath, [bin file, ...args]]. */
export function binCommand(name: string, args: readonly string[], command?: string): [string, string[]] {
  return [process.execPath, [packageBin(name, command), ...args]];
}

/** Runs a package's bin with this Node and waits (output inherited unless `options.stdio` says otherwise). */
export function runBin(
  name: string,
  args: readonly string[],
  options: SpawnSyncOptions & { command?: string } = {},
): { status: number | null; error?: Error } {
  const { command, ...spawnOptions } = options;
  const [file, argv] = binCommand(name, args, command);
  return spawnSync(file, argv, { cwd: repoRoot, stdio: 'inherit', windowsHide: true, ...spawnOptions });
}

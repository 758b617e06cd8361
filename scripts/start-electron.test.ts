// `npm start` without an Electron binary: it runs electron's own installer against the mirror
// it is told (a loopback server here, never the internet), then builds and launches; when the
// install fails it prints one line with the cause and the browser alternative, exit 1.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { electronPackageDir, electronPlatformPath, electronVersion } from './electron-binary.ts';
import { linuxSandboxCheck } from './electron-sandbox.ts';
import { repoRoot } from './package-bin.ts';
import { startElectron } from './start-electron.ts';
import { STANDIN_EXIT_CODE, standInZip, writeStandIn } from './test-support/electron-stand-in.ts';

const version = electronVersion();
const zipName = `electron-v${version}-${process.platform}-${process.arch}.zip`;
const START_SCRIPT = join(import.meta.dirname, 'start-electron.ts');

let dir: string;
let server: Server | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'atelier-start-'));
});
afterEach(async () => {
  await new Promise<void>((done) => (server ? server.close(() => done()) : done()));
  server = undefined;
  rmSync(dir, { recursive: true, force: true });
});

/** This process's environment without anything that would point Electron's download elsewhere. */
function cleanEnv(extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/electron|proxy|^force_no_cache$/i.test(key)) continue;
    env[key] = value;
  }
  return { ...env, ...extra };
}

/** A loopback mirror: records every request path, answers with `handle`. */
async function mirror(handle: (req: IncomingMessage, res: ServerResponse) => void) {
  const requests: string[] = [];
  server = createServer((req, res) => {
    requests.push(req.url ?? '');
    handle(req, res);
  });
  await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/`, requests };
}

/**
 * No binary, and the download goes to `mirror`: an empty override folder means "no binary" even
 * where node_modules/electron has one, and a temporary cache means no cached zip is used.
 */
const noBinaryEnv = (mirrorUrl: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv =>
  cleanEnv({
    ELECTRON_MIRROR: mirrorUrl,
    ELECTRON_OVERRIDE_DIST_PATH: join(dir, 'no-binary'),
    electron_config_cache: join(dir, 'cache'),
    ...extra,
  });

function captured() {
  let text = '';
  return { write: (chunk: string) => (text += chunk), text: () => text, isTTY: false };
}

/** A copy of the electron package (its installer and manifest) whose dist/ the test may fill. */
function electronPackageCopy(checksum: string): string {
  const real = electronPackageDir();
  const modules = join(dir, 'node_modules');
  const copy = join(modules, 'electron');
  mkdirSync(copy, { recursive: true });
  for (const file of ['install.js', 'package.json']) copyFileSync(join(real, file), join(copy, file));
  writeFileSync(join(copy, 'checksums.json'), JSON.stringify({ [zipName]: checksum }));
  // install.js finds @electron/get and the zip extractor beside it, as in node_modules.
  for (const scope of ['@electron', '@electron-internal']) {
    symlinkSync(join(repoRoot, 'node_modules', scope), join(modules, scope), 'junction');
  }
  return copy;
}

describe('npm start without an Electron binary', () => {
  it('asks the mirror, then prints one line with the cause and the browser alternative (exit 1)', async () => {
    const site = await mirror((_req, res) => {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
    });
    // The real script, as `npm start` runs it.
    const env = noBinaryEnv(site.url);
    const child = spawn(process.execPath, [START_SCRIPT, '--demo'], { cwd: repoRoot, env, stdio: 'pipe' });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((done) => child.on('close', done));

    expect(site.requests).toContain(`/v${version}/${zipName}`);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    const lines = stderr.trim().split('\n');
    const failure = lines.filter((line) => line.includes('could not be installed'));
    expect(failure).toHaveLength(1);
    expect(lines.at(-1)).toBe(failure[0]);
    expect(failure[0]).toMatch(
      new RegExp(
        `^Atelier: Electron could not be installed: the mirror 127\\.0\\.0\\.1:\\d+ \\(ELECTRON_MIRROR\\) answered 404 Not Found for ${zipName.replaceAll('.', '\\.')}\\. Run \`npm run start:browser\` to use Atelier in your browser instead\\.$`,
      ),
    );
    // No stack trace from the installer reaches the user.
    expect(stderr).not.toMatch(/^\s+at /m);
  });

  it('on a terminal, shows one status line and leaves only the line of cause when the install fails', async () => {
    const site = await mirror((_req, res) => res.writeHead(404).end());
    const output = { ...captured(), isTTY: true };
    const code = await startElectron({
      args: [],
      env: noBinaryEnv(site.url),
      output,
      build: () => 0,
    });
    expect(code).toBe(1);
    expect(output.text()).toContain(`\rAtelier: installing Electron ${version} from 127.0.0.1:`);
    // What the terminal shows: per line, the text after the last carriage return.
    const screen = output
      .text()
      .split('\n')
      .map((line) => (line.split('\r').at(-1) ?? '').replaceAll('\x1b[K', ''))
      .filter(Boolean);
    expect(screen).toHaveLength(1);
    expect(screen[0]).toMatch(/^Atelier: Electron could not be installed: the mirror .* answered 404 .*start:browser/);
  });

  it('names a mirror that refuses the connection, without building', async () => {
    const site = await mirror(() => {});
    await new Promise<void>((done) => server!.close(() => done()));
    server = undefined;
    const output = captured();
    let built = false;
    const code = await startElectron({
      args: [],
      env: noBinaryEnv(site.url),
      output,
      build: () => ((built = true), 0),
    });
    expect(code).toBe(1);
    expect(built).toBe(false);
    expect(output.text()).toMatch(
      /127\.0\.0\.1:\d+ \(the mirror in ELECTRON_MIRROR\) refused the connection; check ELECTRON_MIRROR\./,
    );
  });

  it('gives up on a mirror that never answers, saying the download stalled', async () => {
    const site = await mirror(() => {}); // holds every request open
    const output = captured();
    const code = await startElectron({
      args: [],
      env: noBinaryEnv(site.url),
      output,
      stallMs: 1500,
      build: () => 0,
    });
    expect(code).toBe(1);
    expect(site.requests).toContain(`/v${version}/${zipName}`);
    expect(output.text()).toMatch(/the download stalled \(nothing for 2 s\); check ELECTRON_MIRROR\./);
    server?.closeAllConnections();
  });

  it('respects ELECTRON_SKIP_BINARY_DOWNLOAD: nothing is asked, one line says why', async () => {
    const site = await mirror((_req, res) => res.writeHead(404).end());
    const output = captured();
    const code = await startElectron({
      args: [],
      env: noBinaryEnv(site.url, { ELECTRON_SKIP_BINARY_DOWNLOAD: '1' }),
      output,
      build: () => 0,
    });
    expect(code).toBe(1);
    expect(site.requests).toEqual([]);
    expect(output.text().trim().split('\n')).toEqual([
      'Atelier: Electron could not be installed: ELECTRON_SKIP_BINARY_DOWNLOAD is set, so it is not downloaded. Run `npm run start:browser` to use Atelier in your browser instead.',
    ]);
  });

  it.skipIf(process.platform === 'win32')(
    'installs from the mirror with visible progress, then builds and launches the binary it unpacked',
    async () => {
      const zip = standInZip();
      const site = await mirror((req, res) => {
        if (req.url === `/v${version}/${zipName}`) {
          res.writeHead(200, { 'content-type': 'application/zip', 'content-length': zip.length }).end(zip);
        } else res.writeHead(404).end();
      });
      const pkg = electronPackageCopy(createHash('sha256').update(zip).digest('hex'));
      const record = join(dir, 'argv.txt');
      const output = captured();
      const steps: string[] = [];
      const code = await startElectron({
        args: ['--demo', 'two words'],
        env: cleanEnv({ ELECTRON_MIRROR: site.url, electron_config_cache: join(dir, 'cache'), STANDIN_OUT: record }),
        output,
        electronPackage: pkg,
        appPath: repoRoot,
        build: () => {
          steps.push(existsSync(join(pkg, 'dist', electronPlatformPath())) ? 'build after install' : 'build too early');
          return 0;
        },
      });
      expect(site.requests).toEqual([`/v${version}/${zipName}`]);
      expect(output.text()).toContain(`from ${site.url}v${version}/${zipName}`);
      expect(output.text()).toMatch(/MB \(100 %\)/);
      expect(output.text()).toContain(`Electron ${version} is installed`);
      expect(steps).toEqual(['build after install']);
      expect(readFileSync(join(pkg, 'path.txt'), 'utf8')).toBe(electronPlatformPath());
      expect(code).toBe(STANDIN_EXIT_CODE);
      const sandboxArgs = linuxSandboxCheck(join(pkg, 'dist', electronPlatformPath())).args;
      expect(readFileSync(record, 'utf8')).toBe([...sandboxArgs, repoRoot, '--demo', 'two words', ''].join('\n'));
    },
  );
});

describe('npm start with an Electron binary', () => {
  it('builds, then launches it with the app path and the user arguments, and exits with its code', async () => {
    const dist = join(dir, 'dist');
    const record = join(dir, 'argv.txt');
    const standInEnv = writeStandIn(dist, record);
    const output = captured();
    const steps: string[] = [];
    const code = await startElectron({
      args: ['--demo', 'a b', '--flag=1'],
      env: cleanEnv({ ...standInEnv, ELECTRON_OVERRIDE_DIST_PATH: dist, ELECTRON_RUN_AS_NODE: '1' }),
      output,
      appPath: repoRoot,
      build: () => {
        steps.push(existsSync(record) ? 'build after launch' : 'build');
        return 0;
      },
    });
    expect(steps).toEqual(['build']);
    expect(code).toBe(STANDIN_EXIT_CODE);
    const argv = readFileSync(record, 'utf8').split('\n').filter(Boolean);
    const sandbox = linuxSandboxCheck(join(dist, electronPlatformPath()));
    expect(argv).toEqual([...sandbox.args, repoRoot, '--demo', 'a b', '--flag=1']);
    // Nothing to install, nothing said (but why the sandbox is off, where it must be).
    expect(output.text()).toBe(
      sandbox.reason ? `Atelier: starting Electron with --no-sandbox: ${sandbox.reason}.\n` : '',
    );
  });

  it('stops at a failed build and launches nothing', async () => {
    const dist = join(dir, 'dist');
    const record = join(dir, 'argv.txt');
    const standInEnv = writeStandIn(dist, record);
    const code = await startElectron({
      args: [],
      env: cleanEnv({ ...standInEnv, ELECTRON_OVERRIDE_DIST_PATH: dist }),
      output: captured(),
      build: () => 2,
    });
    expect(code).toBe(2);
    expect(existsSync(record)).toBe(false);
  });
});

// Installs the Electron binary with the electron package's own installer (`electron/install.js`,
// which @electron/get drives: ELECTRON_MIRROR, electron_config_cache, ELECTRON_CUSTOM_DIR… all
// apply), run by this Node, with visible progress. On failure it names the cause in a few words:
// offline, a proxy, the mirror's answer. Electron 45's package has no postinstall: without this
// the binary arrives only when something first requires `electron`.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { electronBinary, electronPackageDir, electronVersion } from './electron-binary.ts';

export interface InstallOutput {
  write(text: string): unknown;
  isTTY?: boolean;
}

export interface InstallOptions {
  env?: NodeJS.ProcessEnv;
  /** Progress and notes (default: stderr). */
  output?: InstallOutput;
  /** Give up when the installer shows no sign of life for this long (default 2 minutes). */
  stallMs?: number;
  /** The `electron` package folder (default: the one installed here; tests use a copy). */
  packageDir?: string;
}

export type InstallResult = { ok: true; binary: string; installed: boolean } | { ok: false; cause: string };

/** What the observer (electron-install-observer.ts) reported from inside install.js. */
export type ObservedEvent =
  | { event: 'request'; url: string }
  | { event: 'response'; url: string; status: number; statusText?: string; total: number | null }
  | { event: 'progress'; url: string; bytes: number; total: number | null; done?: boolean }
  | { event: 'error'; url: string; code: string | null; message: string };

const MARK = '@@atelier-install ';
const OBSERVER = join(import.meta.dirname, 'electron-install-observer.ts');

/** The setting @electron/get reads for the mirror, in its own order of precedence, if one is set. */
export function mirrorSetting(env: NodeJS.ProcessEnv): { name: string; value: string } | null {
  const names: [string, string][] = [
    ['npm_config_electron_mirror', 'electron_mirror in .npmrc'],
    ['NPM_CONFIG_ELECTRON_MIRROR', 'NPM_CONFIG_ELECTRON_MIRROR'],
    ['npm_package_config_electron_mirror', 'config.electron_mirror in package.json'],
    ['ELECTRON_MIRROR', 'ELECTRON_MIRROR'],
  ];
  for (const [key, name] of names) {
    const value = env[key];
    if (value) return { name, value };
  }
  return null;
}

/** A proxy the user configured (environment or npm's config), if any. */
export function proxySetting(env: NodeJS.ProcessEnv): { name: string; value: string } | null {
  for (const key of [
    'HTTPS_PROXY',
    'https_proxy',
    'HTTP_PROXY',
    'http_proxy',
    'npm_config_https_proxy',
    'npm_config_proxy',
  ]) {
    const value = env[key];
    if (value) return { name: key, value };
  }
  return null;
}

/**
 * The installer's environment: a configured proxy is used (@electron/get ignores HTTPS_PROXY
 * unless ELECTRON_GET_USE_PROXY is set, and never reads npm's proxy setting), so are the extra
 * certificate authorities npm was given (`cafile`, as behind a TLS-inspecting proxy), and its
 * own progress bar (shown only after 30 s) gives way to ours.
 */
export function installerEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const child: NodeJS.ProcessEnv = { ...env, ELECTRON_GET_NO_PROGRESS: '1' };
  if (env.npm_config_cafile && !env.NODE_EXTRA_CA_CERTS) child.NODE_EXTRA_CA_CERTS = env.npm_config_cafile;
  const proxy = proxySetting(env);
  if (proxy) {
    child.ELECTRON_GET_USE_PROXY ??= '1';
    if (proxy.name.startsWith('npm_config_')) {
      child.HTTPS_PROXY = proxy.value;
      child.HTTP_PROXY ??= proxy.value;
    }
  }
  return child;
}

const hostOf = (url: string | undefined): string => {
  try {
    return url ? new URL(url).host : 'the download server';
  } catch {
    return 'the download server';
  }
};

const TIMEOUT_CODES = new Set([
  'ETIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'ENETUNREACH',
  'EHOSTUNREACH',
]);
const CERT_CODES = /CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)|DEPTH_ZERO/;

/**
 * A short phrase naming why the install failed, from what the installer said and what the
 * observer saw: the mirror's answer, offline, a proxy, a refused connection, a checksum.
 */
export function installFailureCause(facts: {
  events: readonly ObservedEvent[];
  installerOutput: string;
  env: NodeJS.ProcessEnv;
  stalledMs?: number;
}): string {
  const mirror = mirrorSetting(facts.env);
  const proxy = proxySetting(facts.env);
  const viaProxy = proxy ? ` through the proxy in ${proxy.name}` : '';
  const mirrorHint = mirror ? ` (the mirror in ${mirror.name})` : '';
  const otherwise = mirror
    ? `; check ${mirror.name}`
    : proxy
      ? ''
      : '; behind a proxy set HTTPS_PROXY, or name a reachable mirror in ELECTRON_MIRROR';
  if (facts.stalledMs !== undefined) {
    return `the download stalled (nothing for ${Math.round(facts.stalledMs / 1000)} s)${otherwise}`;
  }
  const failedAnswer = facts.events.findLast(
    (e): e is Extract<ObservedEvent, { event: 'response' }> => e.event === 'response' && e.status >= 400,
  );
  if (failedAnswer) {
    const file = failedAnswer.url.split('/').pop() ?? failedAnswer.url;
    const where = mirror ? `the mirror ${hostOf(failedAnswer.url)} (${mirror.name})` : hostOf(failedAnswer.url);
    return `${where} answered ${failedAnswer.status}${failedAnswer.statusText ? ` ${failedAnswer.statusText}` : ''} for ${file}`;
  }
  const error = facts.events.findLast((e): e is Extract<ObservedEvent, { event: 'error' }> => e.event === 'error');
  if (error) {
    const host = hostOf(error.url) + mirrorHint;
    const code = error.code ?? '';
    if (/Proxy response \((\d+)\)/.test(error.message)) {
      return `the proxy in ${proxy?.name ?? 'the environment'} refused: ${error.message}`;
    }
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
      return `cannot resolve ${host}${viaProxy}: this machine looks offline${otherwise}`;
    }
    if (code === 'ECONNREFUSED') return `${host} refused the connection${viaProxy}${otherwise}`;
    if (TIMEOUT_CODES.has(code)) return `no answer from ${host}${viaProxy} (offline, or a firewall)${otherwise}`;
    if (CERT_CODES.test(code)) {
      return `${host}'s certificate is not trusted here (${code}; a proxy that inspects TLS needs NODE_EXTRA_CA_CERTS)`;
    }
    return `${host}${viaProxy}: ${code ? `${code} ` : ''}${error.message}${otherwise}`;
  }
  const lines = facts.installerOutput
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('at '));
  if (lines.some((line) => /checksum/i.test(line))) {
    return 'the download did not match the checksum Electron publishes (a mirror or proxy altered it)';
  }
  const first = lines[0] ?? 'the installer failed without saying why';
  return first.length > 200 ? `${first.slice(0, 197)}…` : first;
}

const megabytes = (bytes: number): string => (bytes / 1_000_000).toFixed(1);

/**
 * The install's progress. On a terminal: one status line rewritten in place ("installing… from
 * host: 12.3 / 98.1 MB (12 %)"), erased on failure so the one line of cause is all that stays.
 * Elsewhere (CI logs): the start, the download's address, then a line every 10 %.
 */
function progressDisplay(output: InstallOutput, title: string) {
  let host = '';
  let lastDecile = -1;
  let lastPlain = 0;
  const status = (detail: string) => output.write(`\r${title}${host ? ` from ${host}` : ''}…${detail}\x1b[K`);
  if (output.isTTY) status('');
  else output.write(`${title}…\n`);
  return {
    request(url: string) {
      host = hostOf(url);
      if (output.isTTY) status('');
      else output.write(`  from ${url}\n`);
    },
    progress(bytes: number, total: number | null) {
      const amount = total
        ? `${megabytes(bytes)} / ${megabytes(total)} MB (${Math.floor((bytes / total) * 100)} %)`
        : `${megabytes(bytes)} MB`;
      if (output.isTTY) {
        status(` ${amount}`);
        return;
      }
      const decile = total ? Math.floor((bytes / total) * 10) : -1;
      const now = Date.now();
      if ((total && decile > lastDecile) || (!total && now - lastPlain >= 5000)) {
        lastDecile = decile;
        lastPlain = now;
        output.write(`  ${amount}\n`);
      }
    },
    end(ok: boolean) {
      if (output.isTTY) output.write(ok ? '\n' : '\r\x1b[K');
    },
  };
}

/** Runs electron's install.js (with the observer) and waits for it. */
export function installElectron(options: InstallOptions = {}): Promise<InstallResult> {
  const env = options.env ?? process.env;
  const output = options.output ?? process.stderr;
  const stallMs = options.stallMs ?? 120_000;
  let packageFolder: string;
  let version: string;
  try {
    packageFolder = options.packageDir ?? electronPackageDir();
    version = electronVersion(packageFolder);
  } catch (error) {
    return Promise.resolve({ ok: false, cause: (error as Error).message.replace(/\.$/, '') });
  }
  const installJs = join(packageFolder, 'install.js');
  const display = progressDisplay(output, `Atelier: installing Electron ${version}`);

  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', pathToFileURL(OBSERVER).href, installJs], {
      cwd: packageFolder,
      env: installerEnv(env),
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
    });
    const events: ObservedEvent[] = [];
    let installerOutput = '';
    let stalled = false;
    let stallTimer: NodeJS.Timeout | undefined;
    const alive = (ms = stallMs) => {
      clearTimeout(stallTimer);
      stallTimer = setTimeout(() => {
        stalled = true;
        child.kill();
      }, ms);
    };
    // Loading the installer is not the network: a busy machine gets longer before its first word.
    alive(Math.max(stallMs, 60_000));
    let pending = '';
    const onText = (chunk: Buffer) => {
      alive();
      pending += chunk.toString('utf8');
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        if (!line.startsWith(MARK)) {
          installerOutput += `${line}\n`;
          continue;
        }
        let event: ObservedEvent;
        try {
          event = JSON.parse(line.slice(MARK.length)) as ObservedEvent;
        } catch {
          continue;
        }
        events.push(event);
        if (event.event === 'request' && !/SHASUMS/i.test(event.url)) display.request(event.url);
        if (event.event === 'progress') display.progress(event.bytes, event.total);
      }
    };
    child.stdout.on('data', onText);
    child.stderr.on('data', onText);
    let finished = false;
    const finish = (code: number | null, spawnError?: Error) => {
      if (finished) return;
      finished = true;
      clearTimeout(stallTimer);
      if (pending) installerOutput += pending;
      const binary = code === 0 ? electronBinary(env, packageFolder) : null;
      display.end(Boolean(binary));
      if (binary) {
        output.write(`Atelier: Electron ${version} is installed (${binary}).\n`);
        resolve({ ok: true, binary, installed: true });
        return;
      }
      if (code === 0) {
        const where = env.ELECTRON_OVERRIDE_DIST_PATH
          ? `ELECTRON_OVERRIDE_DIST_PATH (${env.ELECTRON_OVERRIDE_DIST_PATH}) holds no binary`
          : 'the installer finished but left no binary';
        resolve({ ok: false, cause: where });
        return;
      }
      const cause = spawnError
        ? `the installer could not start: ${spawnError.message}`
        : installFailureCause({ events, installerOutput, env, ...(stalled ? { stalledMs: stallMs } : {}) });
      resolve({ ok: false, cause });
    };
    child.on('error', (error) => finish(null, error));
    child.on('close', (code) => finish(code));
  });
}

/** The binary if there is one, else the result of installing it (unless ELECTRON_SKIP_BINARY_DOWNLOAD says not to). */
export async function ensureElectron(options: InstallOptions = {}): Promise<InstallResult> {
  const env = options.env ?? process.env;
  const found = electronBinary(env, options.packageDir);
  if (found) return { ok: true, binary: found, installed: false };
  if (env.ELECTRON_SKIP_BINARY_DOWNLOAD && env.ELECTRON_SKIP_BINARY_DOWNLOAD !== '0') {
    return { ok: false, cause: 'ELECTRON_SKIP_BINARY_DOWNLOAD is set, so it is not downloaded' };
  }
  return installElectron(options);
}

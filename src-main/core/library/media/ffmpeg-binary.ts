// The ffmpeg that takes video frames for posters: the binary @ffmpeg-installer/ffmpeg ships for
// this platform inside its npm packages (no download at install time), so every user has one
// and no system ffmpeg is needed. Loaded on first need, never while the core starts.
import { access, constants } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { delimiter, join } from 'node:path';

/**
 * In a packaged app the package resolves inside `app.asar`, which the OS cannot execute from;
 * electron-builder's `asarUnpack` (`node_modules/@ffmpeg-installer/**`) puts the real file in
 * `app.asar.unpacked` beside it.
 */
export function unpackedPath(path: string): string {
  return path.replace(/([\\/])app\.asar(?=[\\/])/, '$1app.asar.unpacked');
}

async function executable(path: string): Promise<boolean> {
  try {
    await access(path, process.platform === 'win32' ? constants.F_OK : constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The npm package's binary for this platform, or null (a platform it has none for). */
async function bundledFfmpeg(): Promise<string | null> {
  try {
    // A runtime require: the package finds its binary from its own folder, which a bundler
    // must not move (electron-vite leaves this call alone).
    const installer = createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg') as { path: string };
    const path = unpackedPath(installer.path);
    return (await executable(path)) ? path : null;
  } catch {
    return null;
  }
}

async function ffmpegOnPath(env: NodeJS.ProcessEnv): Promise<string | null> {
  const name = process.platform === 'win32' ? 'ffmpeg.exe' : 'ffmpeg';
  for (const dir of (env.PATH ?? '').split(delimiter).filter(Boolean)) {
    if (await executable(join(dir, name))) return join(dir, name);
  }
  return null;
}

let lookup: Promise<string | null> | undefined;

/**
 * The ffmpeg to run, looked up once per process: ATELIER_FFMPEG_PATH when set (a path; one that
 * is not an executable means "none"), else the npm package's, else one on the PATH (only for a
 * platform the package has no binary for).
 */
export function findFfmpeg(env: NodeJS.ProcessEnv = process.env): Promise<string | null> {
  lookup ??= (async () => {
    const chosen = env.ATELIER_FFMPEG_PATH;
    if (chosen) return (await executable(chosen)) ? chosen : null;
    return (await bundledFfmpeg()) ?? (await ffmpegOnPath(env));
  })();
  return lookup;
}

/** For tests: forget the cached lookup. */
export function resetFfmpegLookup(): void {
  lookup = undefined;
}

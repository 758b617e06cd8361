// Which native packages an installer for one OS and architecture must carry, and checks that
// node_modules (before packing) and the packed app (after) hold them. npm installs only the
// optional packages matching the machine it runs on (sharp's @img/*, @ffmpeg-installer/*), and
// electron-builder copies node_modules as installed: an arm64 installer built on an x64 machine
// would ship x64 binaries and fail at start. Hence a build per architecture on its own machine
// (CI), or `npm ci --os=<os> --cpu=<arch>` first, and these checks either way.
import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

export type TargetPlatform = 'darwin' | 'win32' | 'linux';
export type TargetArch = 'x64' | 'arm64';

export interface NativeNeed {
  /** What it is for, in the message. */
  what: string;
  /** A package folder (under node_modules) or a file inside one. */
  path: string;
  /** Missing is a warning, not a failure: no such package is published for this target. */
  optional?: boolean;
}

/** @ffmpeg-installer publishes no win32-arm64 build; Windows on Arm has no bundled ffmpeg. */
const FFMPEG_TARGETS = new Set(['darwin-arm64', 'darwin-x64', 'linux-arm64', 'linux-x64', 'win32-x64']);

export function nativeNeeds(platform: TargetPlatform, arch: TargetArch): NativeNeed[] {
  const target = `${platform}-${arch}`;
  const needs: NativeNeed[] = [
    { what: 'better-sqlite3 (the database)', path: `better-sqlite3/prebuilds/${target}.node` },
    { what: 'sharp (images)', path: `@img/sharp-${target}` },
  ];
  // sharp's Windows packages carry libvips themselves; elsewhere it is a package of its own.
  if (platform !== 'win32') needs.push({ what: 'libvips (for sharp)', path: `@img/sharp-libvips-${target}` });
  needs.push({
    what: 'ffmpeg (video frames)',
    path: `@ffmpeg-installer/${target}`,
    optional: !FFMPEG_TARGETS.has(target),
  });
  return needs;
}

export interface NativeCheck {
  missing: NativeNeed[];
  /** Missing optional ones. */
  warnings: NativeNeed[];
}

/** `has(path)` answers whether node_modules/<path> exists where the app will look for it. */
export function checkNatives(needs: NativeNeed[], has: (path: string) => boolean): NativeCheck {
  const absent = needs.filter((need) => !has(need.path));
  return { missing: absent.filter((need) => !need.optional), warnings: absent.filter((need) => need.optional) };
}

/** Node's lookup of a package folder: <dir>/node_modules/<name> from `from` up to the root. */
function packageDir(from: string, name: string): string | null {
  for (let dir = from; ; dir = dirname(dir)) {
    if (basename(dir) !== 'node_modules') {
      const candidate = join(dir, 'node_modules', name);
      if (existsSync(join(candidate, 'package.json'))) return candidate;
    }
    if (dirname(dir) === dir) return null;
  }
}

/** Finds a path the way the app will at run time: @img/* from sharp's folder, ffmpeg's from its package's. */
export function installedIn(projectDir: string): (path: string) => boolean {
  return (path) => {
    const parts = path.split('/');
    const scoped = parts[0]?.startsWith('@') ?? false;
    const name = parts.slice(0, scoped ? 2 : 1).join('/');
    const inside = parts.slice(scoped ? 2 : 1);
    const owner = name.startsWith('@img/')
      ? 'sharp'
      : name.startsWith('@ffmpeg-installer/')
        ? '@ffmpeg-installer/ffmpeg'
        : null;
    const ownerDir = owner ? packageDir(projectDir, owner) : projectDir;
    const dir = ownerDir ? packageDir(ownerDir, name) : null;
    return dir !== null && existsSync(join(dir, ...inside));
  };
}

/** In a packed app: node_modules/<path> unpacked next to app.asar (asarUnpack in electron-builder.yml). */
export function packedIn(resourcesDir: string): (path: string) => boolean {
  return (path) => existsSync(join(resourcesDir, 'app.asar.unpacked', 'node_modules', path));
}

export function describeMissing(
  check: NativeCheck,
  platform: TargetPlatform,
  arch: TargetArch,
  stage: 'node_modules' | 'packed',
): string {
  const list = check.missing.map((need) => `  - ${need.path}: ${need.what}`).join('\n');
  const how =
    stage === 'node_modules'
      ? [
          `npm installs only this machine's (${process.platform}-${process.arch}) native packages. Build`,
          `${platform}-${arch} on an ${arch} machine, or first run: npm ci --os=${platform} --cpu=${arch}`,
        ]
      : ['They are in node_modules but not unpacked: see asarUnpack in electron-builder.yml.'];
  const where = stage === 'node_modules' ? 'not in node_modules' : 'not unpacked next to app.asar';
  return [`The ${platform}-${arch} installer would lack native packages (${where}):`, list, ...how].join('\n');
}

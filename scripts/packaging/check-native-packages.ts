// electron-builder hooks (electron-builder.yml beforePack and afterPack): an installer is built
// only if node_modules holds the native packages of the architecture being packed, and the
// packed app really carries them unpacked next to app.asar. See native-packages.ts.
import {
  checkNatives,
  describeMissing,
  installedIn,
  nativeNeeds,
  packedIn,
  type TargetArch,
  type TargetPlatform,
} from './native-packages.ts';

/** The parts of electron-builder's BeforePackContext / AfterPackContext read here. */
export interface PackContext {
  appOutDir: string;
  /** electron-builder's Arch enum: 0 ia32, 1 x64, 2 armv7l, 3 arm64, 4 universal. */
  arch: number;
  electronPlatformName: string;
  packager: { projectDir: string; getResourcesDir(appOutDir: string): string };
}

const ARCHES: Record<number, TargetArch> = { 1: 'x64', 3: 'arm64' };

function targetOf(context: PackContext): { platform: TargetPlatform; arch: TargetArch } {
  const platform = context.electronPlatformName === 'mas' ? 'darwin' : context.electronPlatformName;
  const arch = ARCHES[context.arch];
  if ((platform !== 'darwin' && platform !== 'win32' && platform !== 'linux') || !arch) {
    throw new Error(
      `Atelier is built for darwin, win32 and linux on x64 and arm64, not ${platform} arch #${context.arch}`,
    );
  }
  return { platform, arch };
}

function report(context: PackContext, has: (path: string) => boolean, stage: 'node_modules' | 'packed'): void {
  const { platform, arch } = targetOf(context);
  const check = checkNatives(nativeNeeds(platform, arch), has);
  for (const need of check.warnings) {
    console.warn(`  • ${platform}-${arch}: no ${need.path} is published; the installer ships without ${need.what}`);
  }
  if (check.missing.length > 0) throw new Error(describeMissing(check, platform, arch, stage));
}

export async function beforePack(context: PackContext): Promise<void> {
  report(context, installedIn(context.packager.projectDir), 'node_modules');
}

export async function afterPack(context: PackContext): Promise<void> {
  report(context, packedIn(context.packager.getResourcesDir(context.appOutDir)), 'packed');
}

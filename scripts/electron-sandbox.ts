// When the Electron binary from npm cannot start with Chromium's sandbox on Linux, and why. Its
// sandbox needs unprivileged user namespaces or a setuid-root `chrome-sandbox` helper, which the
// npm package's dist/ never has. Namespaces are refused to root (Electron then refuses to start)
// and by Ubuntu 23.10+'s AppArmor policy (Electron then aborts at once). `npm start` and the
// `_electron` specs pass `--no-sandbox` only then, and say why; installers are not affected.
import { readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface SandboxCheck {
  args: string[];
  reason: string | null;
}

const readNumber = (file: string): number | null => {
  try {
    return Number(readFileSync(file, 'utf8').trim());
  } catch {
    return null;
  }
};

export interface SandboxFacts {
  platform: NodeJS.Platform;
  uid: number | null;
  /** The helper's owner and mode, or null when absent. */
  helper: { uid: number; mode: number } | null;
  /** Whether the kernel lets an unprivileged process create user namespaces. */
  userNamespaces: boolean;
}

export function sandboxFacts(binary: string): SandboxFacts {
  let helper: SandboxFacts['helper'] = null;
  try {
    const stat = statSync(join(dirname(binary), 'chrome-sandbox'));
    helper = { uid: stat.uid, mode: stat.mode };
  } catch {
    helper = null;
  }
  const userNamespaces =
    readNumber('/proc/sys/kernel/apparmor_restrict_unprivileged_userns') !== 1 &&
    readNumber('/proc/sys/kernel/unprivileged_userns_clone') !== 0 &&
    readNumber('/proc/sys/user/max_user_namespaces') !== 0;
  return { platform: process.platform, uid: process.getuid?.() ?? null, helper, userNamespaces };
}

export function sandboxCheck(facts: SandboxFacts): SandboxCheck {
  if (facts.platform !== 'linux') return { args: [], reason: null };
  if (facts.uid === 0) return { args: ['--no-sandbox'], reason: 'running as root, where Chromium has no sandbox' };
  const setuidHelper = facts.helper !== null && facts.helper.uid === 0 && (facts.helper.mode & 0o4000) !== 0;
  if (facts.userNamespaces || setuidHelper) return { args: [], reason: null };
  return {
    args: ['--no-sandbox'],
    reason:
      'this Linux refuses the user namespaces Chromium sandboxes with, and chrome-sandbox in node_modules/electron/dist is not setuid root (`sudo chown root:root` it and `sudo chmod 4755` it to keep the sandbox)',
  };
}

/** The flags to launch this binary with, and the reason when there are any. */
export const linuxSandboxCheck = (binary: string): SandboxCheck => sandboxCheck(sandboxFacts(binary));

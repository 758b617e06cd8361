// --no-sandbox for `npm start` and the _electron specs only where Chromium's sandbox cannot work.
import { describe, expect, it } from 'vitest';
import { sandboxCheck, type SandboxFacts } from './electron-sandbox.ts';

const linux = (facts: Partial<SandboxFacts>): SandboxFacts => ({
  platform: 'linux',
  uid: 1000,
  helper: { uid: 1000, mode: 0o100755 },
  userNamespaces: true,
  ...facts,
});

describe('sandboxCheck', () => {
  it('keeps the sandbox on macOS, Windows and a Linux that allows user namespaces', () => {
    expect(sandboxCheck(linux({ platform: 'darwin', uid: 0 })).args).toEqual([]);
    expect(sandboxCheck(linux({ platform: 'win32', uid: null })).args).toEqual([]);
    expect(sandboxCheck(linux({}))).toEqual({ args: [], reason: null });
  });

  it('keeps it where namespaces are refused but chrome-sandbox is setuid root', () => {
    expect(sandboxCheck(linux({ userNamespaces: false, helper: { uid: 0, mode: 0o104755 } })).args).toEqual([]);
  });

  it('turns it off, saying why, for root and where neither way works (Ubuntu 24.04 AppArmor)', () => {
    expect(sandboxCheck(linux({ uid: 0 }))).toEqual({
      args: ['--no-sandbox'],
      reason: 'running as root, where Chromium has no sandbox',
    });
    const ubuntu = sandboxCheck(linux({ userNamespaces: false }));
    expect(ubuntu.args).toEqual(['--no-sandbox']);
    expect(ubuntu.reason).toMatch(/chrome-sandbox .* is not setuid root/);
  });
});

// Xvfb for the _electron specs on headless Linux: started on a free display, stopped after.
import { describe, expect, it } from 'vitest';
import { needsVirtualDisplay, onPath, startXvfb } from './virtual-display.ts';

describe('virtual display', () => {
  it('is needed only on Linux without DISPLAY or WAYLAND_DISPLAY', () => {
    expect(needsVirtualDisplay({}, 'linux')).toBe(true);
    expect(needsVirtualDisplay({ DISPLAY: ':0' }, 'linux')).toBe(false);
    expect(needsVirtualDisplay({ WAYLAND_DISPLAY: 'wayland-0' }, 'linux')).toBe(false);
    expect(needsVirtualDisplay({}, 'darwin')).toBe(false);
    expect(needsVirtualDisplay({}, 'win32')).toBe(false);
  });

  const xvfb = process.platform === 'linux' ? onPath('Xvfb') : null;
  it.skipIf(!xvfb)('starts Xvfb on a free display and stops it (where Xvfb is installed)', async () => {
    const first = await startXvfb(xvfb!);
    const second = await startXvfb(xvfb!);
    try {
      expect(first.display).toMatch(/^:\d+$/);
      expect(second.display).not.toBe(first.display);
    } finally {
      first.stop();
      second.stop();
    }
  });
});

import { describe, expect, it } from 'vitest';
import { isAppUrl } from './app-url.ts';
import { permissionAllowed } from './permission-policy.ts';

describe('permission policy', () => {
  it('denies every powerful permission, even to the app page', () => {
    for (const permission of [
      'media',
      'geolocation',
      'notifications',
      'midiSysex',
      'openExternal',
      'clipboard-read',
      'display-capture',
      'hid',
      'serial',
      'usb',
      'pointerLock',
      'unknown',
    ]) {
      expect(permissionAllowed(permission, 'atelier://app/index.html', isAppUrl), permission).toBe(false);
    }
  });

  it('allows full screen and sanitized clipboard writes to the app page only', () => {
    expect(permissionAllowed('fullscreen', 'atelier://app/index.html', isAppUrl)).toBe(true);
    expect(permissionAllowed('clipboard-sanitized-write', 'atelier://app/', isAppUrl)).toBe(true);
    expect(permissionAllowed('fullscreen', 'https://evil.example/', isAppUrl)).toBe(false);
    expect(permissionAllowed('clipboard-sanitized-write', '', isAppUrl)).toBe(false);
  });
});

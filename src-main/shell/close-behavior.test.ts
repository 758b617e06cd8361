import { describe, expect, it } from 'vitest';
import { closeAction } from './close-behavior.ts';

const base = { quitting: false, closeToTray: true, closeToTrayExplained: true, trayAvailable: true };

describe('closeAction', () => {
  it('hides to the tray, explaining it the first time only', () => {
    expect(closeAction({ ...base, closeToTrayExplained: false })).toBe('hide-and-explain');
    expect(closeAction(base)).toBe('hide');
  });

  it('really closes when quitting, when the setting is off or when there is no tray to come back from', () => {
    expect(closeAction({ ...base, quitting: true })).toBe('close');
    expect(closeAction({ ...base, closeToTray: false })).toBe('close');
    expect(closeAction({ ...base, trayAvailable: false, closeToTrayExplained: false })).toBe('close');
  });
});

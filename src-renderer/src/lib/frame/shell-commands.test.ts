import { describe, expect, it } from 'vitest';
import { SHELL_COMMAND_VIEWS, viewForShellCommand } from './shell-commands.ts';

describe('native menu commands', () => {
  it('Settings… (Cmd/Ctrl+,) opens the Settings view', () => {
    expect(viewForShellCommand('open-settings')).toBe('settings');
  });

  it('maps every command the contract lists', () => {
    expect(Object.keys(SHELL_COMMAND_VIEWS)).toEqual(['open-settings']);
  });

  it('ignores what it does not know', () => {
    for (const command of ['open-nothing', '', 'toString', '__proto__', 42, null, undefined]) {
      expect(viewForShellCommand(command)).toBeNull();
    }
  });
});

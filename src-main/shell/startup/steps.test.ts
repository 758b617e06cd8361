import { describe, expect, it } from 'vitest';
import { startupFailureMessage } from './failure-message.ts';
import { StartupCancelled, StartupError, startupSteps } from './steps.ts';

describe('startup steps', () => {
  it('runs steps in order and names the one that failed', async () => {
    const steps = startupSteps({ cancelled: () => false });
    expect(steps.run('one', () => 1)).toBe(1);
    expect(await steps.wait('two', async () => 2)).toBe(2);
    const failure = await steps
      .wait('Opening the library', async () => {
        throw new Error('SQLITE_CANTOPEN');
      })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(StartupError);
    expect((failure as StartupError).step).toBe('Opening the library');
    expect(((failure as StartupError).cause as Error).message).toBe('SQLITE_CANTOPEN');
    expect(() =>
      steps.run('Reading the settings', () => {
        throw new Error('EISDIR');
      }),
    ).toThrow(/Reading the settings: EISDIR/);
    expect(steps.begun()).toEqual(['one', 'two', 'Opening the library', 'Reading the settings']);
  });

  it('keeps the innermost step name when steps nest', () => {
    const steps = startupSteps({ cancelled: () => false });
    const failure = (() => {
      try {
        steps.run('outer', () =>
          steps.run('inner', () => {
            throw new Error('boom');
          }),
        );
      } catch (error) {
        return error as StartupError;
      }
    })();
    expect(failure?.step).toBe('inner');
  });

  it('stops before the next step once a quit was asked for', () => {
    let quitting = false;
    const ran: string[] = [];
    const steps = startupSteps({ cancelled: () => quitting, onStep: (name) => ran.push(name) });
    steps.run('first', () => (quitting = true));
    expect(() => steps.run('second', () => ran.push('body'))).toThrow(StartupCancelled);
    expect(ran).toEqual(['first']);
  });
});

describe('startup failure message', () => {
  it('says which step failed, the cause in one line, and where the log is', () => {
    const error = new StartupError('Reading the settings', new Error('EISDIR: illegal operation\non a directory'));
    const text = startupFailureMessage({ appName: 'Atelier', error, logFile: '/d/logs/atelier.log' });
    expect(text.title).toBe('Atelier could not start');
    expect(text.content).toContain('Reading the settings failed:');
    expect(text.content).toContain('EISDIR: illegal operation on a directory');
    expect(text.content).toContain('Details are in the log: /d/logs/atelier.log');
  });

  it('says so when no log could be written, and shortens a huge message', () => {
    const text = startupFailureMessage({ appName: 'Atelier', error: 'x'.repeat(5_000), logFile: null });
    expect(text.content).toContain('Starting failed:');
    expect(text.content).toContain('No log could be written');
    expect(text.content.length).toBeLessThan(1_000);
  });
});

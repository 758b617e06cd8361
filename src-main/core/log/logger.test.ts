// The logger: levels, formats, size rotation, and secrets never reaching the file.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from './logger.ts';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'atelier-log-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const fixedNow = () => new Date('2025-01-02T03:04:05.678Z');

describe('createLogger', () => {
  it('writes JSON lines with level, scope, message and fields, and honours the level', () => {
    const file = join(tempDir(), 'logs', 'atelier.log');
    const logger = createLogger({ file, level: 'info', now: fixedNow });
    logger.debug('not written');
    logger.child('api').info('GET /models 200', { ms: 12 });
    logger.warn('careful');
    logger.close();
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toEqual([
      { time: '2025-01-02T03:04:05.678Z', level: 'info', scope: 'api', msg: 'GET /models 200', ms: 12 },
      { time: '2025-01-02T03:04:05.678Z', level: 'warn', msg: 'careful' },
    ]);
  });

  it('writes plain lines with the error stack indented', () => {
    const file = join(tempDir(), 'atelier.log');
    const logger = createLogger({ file, level: 'debug', format: 'plain', now: fixedNow });
    logger.error('boom', new Error('bad thing'));
    logger.close();
    const text = readFileSync(file, 'utf8');
    expect(text).toMatch(/^2025-01-02T03:04:05.678Z ERROR boom\n {2}Error: bad thing\n/);
  });

  it('redacts secrets read at write time from messages, fields and errors', () => {
    const file = join(tempDir(), 'atelier.log');
    let key: string | null = null;
    const logger = createLogger({ file, level: 'debug', secrets: () => [key] });
    key = 'sk-SENTINEL-logger-key';
    logger.info(`message with ${key}`, { nested: { value: key }, authorization: 'Bearer whatever' });
    logger.error('failed', new Error(`error with ${key} and Bearer ${key}`));
    logger.close();
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain('sk-SENTINEL');
    expect(text).not.toContain('whatever');
    expect(text.match(/\[redacted\]/g)?.length).toBeGreaterThanOrEqual(4);
  });

  it('rotates by size and keeps only the configured number of files', () => {
    const dir = tempDir();
    const file = join(dir, 'atelier.log');
    const logger = createLogger({ file, level: 'info', maxBytes: 2048, keep: 2 });
    for (let i = 0; i < 100; i++) logger.info(`line ${i} ${'x'.repeat(80)}`);
    logger.close();
    expect(readdirSync(dir).sort()).toEqual(['atelier.log', 'atelier.log.1', 'atelier.log.2']);
    for (const name of readdirSync(dir)) {
      expect(readFileSync(join(dir, name)).length).toBeLessThanOrEqual(2048);
    }
    // The newest line is in the live file, and lines are never split across files.
    expect(readFileSync(file, 'utf8')).toContain('line 99 ');
    for (const name of readdirSync(dir)) {
      for (const line of readFileSync(join(dir, name), 'utf8').trim().split('\n')) {
        expect(() => JSON.parse(line)).not.toThrow();
      }
    }
  });

  it('appends to an existing file across logger instances', () => {
    const file = join(tempDir(), 'atelier.log');
    const first = createLogger({ file });
    first.info('one');
    first.close();
    const second = createLogger({ file });
    second.info('two');
    second.close();
    second.info('dropped after close');
    expect(readFileSync(file, 'utf8').trim().split('\n')).toHaveLength(2);
  });
});

// A read-only (or otherwise unwritable) data folder: one clear sentence, never a raw EROFS stack.
// Tests inject the failing write (they must run unprivileged and without mounts); the logger's
// own fallback is exercised with a real unwritable path (a file where its folder should be).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../contract/errors.ts';
import { createCore } from './core.ts';
import { checkDataDir } from './data-dir.ts';
import { createLogger } from './log/logger.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'atelier-datadir-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const erofs = () => {
  throw Object.assign(new Error(`EROFS: read-only file system, open '${dir}/x'`), { code: 'EROFS' });
};

describe('the data folder', () => {
  it('a read-only folder gives one sentence naming it and what to do', () => {
    let error: unknown;
    try {
      checkDataDir(join(dir, 'Atelier'), { write: erofs });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AppError);
    const message = (error as AppError).info.message;
    expect(message).toMatch(/^The data folder .*Atelier is read-only/);
    expect(message).toMatch(/ATELIER_DATA_DIR/);
    expect(message).not.toMatch(/\n\s+at /);
  });

  it('a writable folder passes and is left clean', () => {
    checkDataDir(join(dir, 'Atelier'));
    checkDataDir(join(dir, 'Atelier'));
  });

  it('createCore refuses an unwritable data folder with that sentence, not a stack', async () => {
    writeFileSync(join(dir, 'not-a-folder'), 'x');
    const error = await createCore({
      dataDir: join(dir, 'not-a-folder', 'Atelier'),
      host: { kind: 'cli', appVersion: '0', chromiumVersion: null, electronVersion: null },
    }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).info.message).toMatch(/^The data folder .* cannot be written/);
  });

  it('the logger falls back to stderr when its file cannot be opened, instead of throwing', () => {
    writeFileSync(join(dir, 'logs'), 'a file where the logs folder should be');
    const logger = createLogger({ file: join(dir, 'logs', 'atelier.log'), stderr: false });
    expect(() => logger.info('still running')).not.toThrow();
    logger.close();
  });
});

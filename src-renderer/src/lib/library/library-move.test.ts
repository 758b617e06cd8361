import { describe, expect, it } from 'vitest';
import type { LibraryMoveInfo } from '@contract/ipc/library.ts';
import { canAbortMove, moveCountsText, moveFailureText, moveFraction, moveTargetProblem } from './library-move.ts';

const info = (patch: Partial<LibraryMoveInfo>): LibraryMoveInfo => ({
  state: 'copying',
  from: '/home/me/Atelier',
  to: '/mnt/big/Atelier',
  filesDone: 0,
  filesTotal: 0,
  bytesDone: 0,
  bytesTotal: 0,
  error: null,
  ...patch,
});

describe('moveTargetProblem', () => {
  const from = '/home/me/Atelier/Library';

  it('accepts a full path elsewhere', () => {
    expect(moveTargetProblem('/mnt/big/Library', from)).toBeNull();
    expect(moveTargetProblem('  D:\\Pictures\\Atelier ', from)).toBeNull();
    // A sibling that only shares a prefix is not inside.
    expect(moveTargetProblem('/home/me/Atelier/Library-2', from)).toBeNull();
  });

  it('asks for a full path', () => {
    expect(moveTargetProblem('', from)).toMatch(/Type the folder/);
    expect(moveTargetProblem('Pictures/Atelier', from)).toMatch(/full path/);
  });

  it('refuses the current folder, a folder inside it and a folder holding it', () => {
    expect(moveTargetProblem('/home/me/Atelier/Library/', from)).toMatch(/already the library folder/);
    expect(moveTargetProblem('/home/me/Atelier/Library/sub', from)).toMatch(/inside the current library/);
    expect(moveTargetProblem('/home/me', from)).toMatch(/current library is inside/);
    expect(moveTargetProblem('/', from)).toMatch(/current library is inside/);
  });
});

describe('progress', () => {
  it('counts bytes, or files when the files are empty', () => {
    expect(moveFraction(info({ bytesDone: 25, bytesTotal: 100, filesTotal: 4 }))).toBe(0.25);
    expect(moveFraction(info({ filesDone: 1, filesTotal: 2 }))).toBe(0.5);
    expect(moveFraction(info({}))).toBeUndefined();
    expect(moveFraction(info({ state: 'cleaning' }))).toBe(1);
  });

  it('writes files and sizes', () => {
    expect(moveCountsText(info({ filesDone: 1, filesTotal: 3, bytesDone: 1500, bytesTotal: 2_500_000 }))).toBe(
      '1 of 3 files · 1.5 KB of 2.5 MB',
    );
  });

  it('can be aborted only until the copies are checked', () => {
    expect(canAbortMove('copying')).toBe(true);
    expect(canAbortMove('verifying')).toBe(true);
    expect(canAbortMove('switching')).toBe(false);
    expect(canAbortMove('done')).toBe(false);
  });
});

describe('moveFailureText', () => {
  it('says what to do when the disk is full', () => {
    expect(moveFailureText({ code: 'disk_full', message: 'x' }).advice).toMatch(/another disk/);
  });

  it('replaces the generic internal message and points at permissions', () => {
    const text = moveFailureText({
      code: 'internal',
      message: 'Something went wrong in library:move. Details are in the log.',
    });
    expect(text.message).toMatch(/could not create or write/);
    expect(text.advice).toMatch(/allowed to write/);
  });

  it("keeps the core's own refusal, which already says what to do", () => {
    const message = 'The new folder is not empty; choose an empty folder or a new one.';
    expect(moveFailureText({ code: 'invalid_argument', message, field: 'to' })).toEqual({ message, advice: null });
  });
});

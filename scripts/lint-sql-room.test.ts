// The sqlRoom rule: a statement prepared outside src-main/core/db fails; inside it, in a test,
// or any other call named differently, passes.
import { describe, expect, it } from 'vitest';
import { describeResults, sqlRoomLinter } from './lint-sql-room.ts';

const PREPARING = "export const n = (db: any) => db.prepare('SELECT 1').get();\n";

async function breaches(filePath: string, code = PREPARING): Promise<string[]> {
  return describeResults(await sqlRoomLinter().lintText(code, { filePath, warnIgnored: false }));
}

describe('sql-room lint', () => {
  it('fails on .prepare( in the app code outside core/db, naming the place', async () => {
    expect(await breaches('src-main/core/library/planted.ts')).toEqual([
      expect.stringMatching(/^src-main\/core\/library\/planted\.ts:1:31 SQL lives in src-main\/core\/db/),
    ]);
    expect(
      await breaches('src-main/cli/planted.ts', 'export const m = (c: any) => c.sqlite?.prepare("x");\n'),
    ).toHaveLength(1);
  });

  it('lets core/db, tests and other calls be', async () => {
    expect(await breaches('src-main/core/db/repos/planted.ts')).toEqual([]);
    expect(await breaches('src-main/core/library/planted.test.ts')).toEqual([]);
    expect(await breaches('src-main/core/library/planted.ts', 'export const p = (x: any) => x.prepared();\n')).toEqual(
      [],
    );
  });
});

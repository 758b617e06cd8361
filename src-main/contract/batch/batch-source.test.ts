import { describe, expect, it } from 'vitest';
import { BatchSourceError, readBatchCsv, readPromptList } from './batch-source.ts';

describe('a list of prompts', () => {
  it('takes one prompt a line, skipping blank lines and # comments, numbered by line', () => {
    const source = readPromptList('# my list\r\na fox\n\n  a cat  \r\n#skip\nan owl\n');
    expect(source.rows).toEqual([
      { row: 2, cells: { prompt: 'a fox' } },
      { row: 4, cells: { prompt: 'a cat' } },
      { row: 6, cells: { prompt: 'an owl' } },
    ]);
  });

  it('ignores a byte order mark', () => {
    expect(readPromptList('\uFEFFa fox').rows).toEqual([{ row: 1, cells: { prompt: 'a fox' } }]);
  });
});

describe('a CSV of settings', () => {
  it('maps columns to settings, numbering rows from 1 after the header', () => {
    const source = readBatchCsv('prompt,model,aspect-ratio,option:imageSize\na fox,imagea,16:9,2K\nan owl,imageb,,\n');
    expect(source.rows).toEqual([
      { row: 1, cells: { prompt: 'a fox', model: 'imagea', 'aspect-ratio': '16:9', 'option:imageSize': '2K' } },
      { row: 2, cells: { prompt: 'an owl', model: 'imageb' } },
    ]);
    expect(source.unreadable).toEqual([]);
  });

  it('reads quotes, embedded newlines and commas, a BOM and CRLF', () => {
    const text =
      '\uFEFFprompt,model\r\n"a fox, at night",imagea\r\n"two\r\nlines ""quoted""",imagea\r\nplain,imagea\r\n';
    const { rows } = readBatchCsv(text);
    expect(rows.map((r) => [r.row, r.cells['prompt']])).toEqual([
      [1, 'a fox, at night'],
      [2, 'two\r\nlines "quoted"'],
      [3, 'plain'],
    ]);
    expect(rows[0]!.cells['model']).toBe('imagea');
    // A BOM before a quoted header cell (what spreadsheet exports write).
    expect(readBatchCsv('\uFEFF"prompt","model"\n"a fox",imagea\n').rows).toEqual([
      { row: 1, cells: { prompt: 'a fox', model: 'imagea' } },
    ]);
  });

  it('treats an empty cell as the default and skips empty rows, still counting them', () => {
    const { rows } = readBatchCsv('prompt,seed\na fox,\n,\n\nan owl, 7 \n');
    expect(rows).toEqual([
      { row: 1, cells: { prompt: 'a fox' } },
      { row: 4, cells: { prompt: 'an owl', seed: '7' } },
    ]);
  });

  it('refuses unknown, unnamed and repeated columns by name, reading no row', () => {
    expect(() => readBatchCsv('prompt,colour\na,b\n')).toThrow(BatchSourceError);
    expect(() => readBatchCsv('prompt,colour\na,b\n')).toThrow('unknown column "colour"');
    expect(() => readBatchCsv('prompt,option:\na,b\n')).toThrow('column "option:" names no option');
    expect(() => readBatchCsv('prompt,,model\na,b,c\n')).toThrow('a column has no name');
    expect(() => readBatchCsv('prompt,prompt\na,b\n')).toThrow('column "prompt" appears twice');
    expect(() => readBatchCsv('')).toThrow('The CSV is empty');
  });

  it('reports a row with more cells than the header, and text that is not CSV', () => {
    const source = readBatchCsv('prompt,model\na,imagea,extra\nb,imagea\n');
    expect(source.unreadable).toEqual([{ row: 1, message: 'it has 3 cells but the header names 2 columns' }]);
    expect(source.rows).toEqual([{ row: 2, cells: { prompt: 'b', model: 'imagea' } }]);
    expect(() => readBatchCsv('prompt\n"never closed\n')).toThrow(/The CSV could not be read: .*Quote Not Closed/i);
  });
});

import { parse } from 'csv-parse/browser/esm/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BatchSourceError, csvRecords, readBatchCsv, readPromptList } from './batch-source.ts';

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

describe('the CSV read as bytes (planning speed, bench scenario 8)', () => {
  const options = { bom: true, relax_column_count: true, trim: true };
  /** csv-parse's own reading of the string: records, or its error's message. */
  const reference = (text: string): string[][] | string => {
    try {
      return parse(text, options) as string[][];
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  };
  const ours = (text: string): string[][] | string => {
    try {
      return csvRecords(text);
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  };

  it('reads letters beyond ASCII, a BOM and each line ending as the parser reads the string', () => {
    const text = '\uFEFFprompt,model\r\n"café ☕, 夜の狐 🦊",imagea\r\n"Ωmega\nline",imageb\r\nπ , 🦊 \r\n';
    expect(ours(text)).toEqual(reference(text));
    expect(csvRecords(text)).toEqual([
      ['prompt', 'model'],
      ['café ☕, 夜の狐 🦊', 'imagea'],
      ['Ωmega\nline', 'imageb'],
      ['π', '🦊'],
    ]);
    for (const other of ['prompt\ra fox\r"an\rowl"\r', 'prompt\na fox\n\n"an owl"\n', 'a,"b"x\n', '"a\n'])
      expect(ours(other)).toEqual(reference(other));
  });

  it('gives the records or the error csv-parse gives for the same text, whatever the text', () => {
    // Not lone surrogates: no text decoded from a file or pasted holds one, and there the platform's
    // encoder writes one U+FFFD each where the parser's own polyfill drops some.
    const piece = fc.constantFrom(',', '"', '""', '\r', '\n', '\r\n', ' ', '\t', 'a', 'é', '🦊', '\uFEFF', '{a|b}');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
        const text = pieces.join('');
        expect(ours(text)).toEqual(reference(text));
      }),
      { numRuns: 2000 },
    );
  });
});

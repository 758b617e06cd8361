// An experiment's plan in the dialog's words: jobs, cost and time in one line, the send button's promise,
// marks and notes by cell name, refused cells never counted as sent.
import { describe, expect, it } from 'vitest';
import type { ExperimentCellPlanInfo, ExperimentPlanInfo } from '@contract/ipc/experiments.ts';
import { fakeCore, installFakeCore } from '../test-support/fake-core.ts';

// The credits are said as Create says them (create/cost-estimate.ts, which loads the bridge).
installFakeCore(fakeCore());
const { cellNotesText, defaultName, durationText, noteLines, planSummary, refusedLines, sendLabel } =
  await import('./plan-words.ts');

const cell = (row: number, column: number, over: Partial<ExperimentCellPlanInfo> = {}): ExperimentCellPlanInfo => ({
  row,
  column,
  kind: 'image',
  body: {},
  estimate: { credits: 4, basedOn: 2, low: 4, high: 4 },
  notes: [],
  refused: null,
  ...over,
});

const plan = (cells: ExperimentCellPlanInfo[], over: Partial<ExperimentPlanInfo> = {}): ExperimentPlanInfo => ({
  axes: [
    { kind: 'model', key: null, label: 'Model' },
    { kind: 'aspectRatio', key: null, label: 'Aspect ratio' },
  ],
  rows: [
    { value: 'imagea', label: 'Image A' },
    { value: 'imageb', label: 'Image B' },
  ],
  columns: [
    { value: '1:1', label: '1:1' },
    { value: '21:9', label: '21:9' },
  ],
  cells,
  totalCredits: 4 * cells.filter((c) => c.refused === null).length,
  unknownEstimates: 0,
  expectedSeconds: 170,
  budget: { ok: true },
  ...over,
});

describe('plan words', () => {
  it('says jobs, credits and time, counting only the cells that will be sent', () => {
    const p = plan([cell(0, 0), cell(0, 1), cell(1, 0), cell(1, 1, { refused: 'aspect ratio 21:9 is not allowed' })]);
    expect(planSummary(p)).toBe('3 jobs · about 12 credits · about 3 min');
    expect(sendLabel(p)).toBe('Send 3 jobs (about 12 credits)');
    expect(refusedLines(p)).toEqual(['Image B × 21:9: aspect ratio 21:9 is not allowed']);
  });

  it('says when some or all estimates are unknown, and one job in the singular', () => {
    const unknown = { credits: null, basedOn: 0, low: null, high: null };
    expect(
      planSummary(
        plan([cell(0, 0, { estimate: unknown })], { totalCredits: 0, unknownEstimates: 1, expectedSeconds: null }),
      ),
    ).toBe('1 job · cost unknown · time unknown');
    expect(
      sendLabel(plan([cell(0, 0), cell(0, 1, { estimate: unknown })], { totalCredits: 4, unknownEstimates: 1 })),
    ).toBe('Send 2 jobs (about 4 credits + 1 unknown)');
  });

  it('marks a cell whose settings were changed and says each change once, where it applies', () => {
    const ratio = { field: 'aspectRatio', change: 'mapped' as const, message: 'aspect ratio 21:9 → 16:9: no 21:9' };
    const quality = {
      field: 'options.imagec.quality',
      change: 'dropped' as const,
      message: 'quality dropped: Image B has none',
    };
    const size = { field: 'options.imagea.imageSize', change: 'mapped' as const, message: 'size 1K → 2K' };
    const p = plan([
      cell(0, 0, { notes: [size] }),
      cell(0, 1, { notes: [size] }),
      cell(1, 0, { notes: [quality] }),
      cell(1, 1, { notes: [ratio, quality, quality] }),
    ]);
    expect(cellNotesText(p.cells[3]!)).toBe('3 settings changed');
    expect(cellNotesText(plan([cell(0, 0)]).cells[0]!)).toBeNull();
    expect(noteLines(p)).toEqual([
      // A whole row by its name, one cell by row × column.
      'Image A: size 1K → 2K',
      'Image B: quality dropped: Image B has none',
      'Image B × 21:9: aspect ratio 21:9 → 16:9: no 21:9',
    ]);
    // A whole column by its name; every cell said once.
    const column = plan([cell(0, 1, { notes: [ratio] }), cell(1, 1, { notes: [ratio] }), cell(0, 0), cell(1, 0)]);
    expect(noteLines(column)).toEqual(['21:9: aspect ratio 21:9 → 16:9: no 21:9']);
    const all = plan([
      cell(0, 0, { notes: [size] }),
      cell(0, 1, { notes: [size] }),
      cell(1, 0, { notes: [size] }),
      cell(1, 1, { notes: [size] }),
    ]);
    expect(noteLines(all)).toEqual(['Every cell: size 1K → 2K']);
    // One axis: a cell is named by its row.
    const single = plan([cell(1, 0, { notes: [ratio] }), cell(0, 0)], {
      axes: [{ kind: 'model', key: null, label: 'Model' }],
      columns: [{ value: '', label: '' }],
    });
    expect(noteLines(single)).toEqual(['Image B: aspect ratio 21:9 → 16:9: no 21:9']);
  });

  it('says durations in seconds, minutes and hours', () => {
    expect(durationText(40)).toBe('about 40 s');
    expect(durationText(170)).toBe('about 3 min');
    expect(durationText(4800)).toBe('about 1 h 20 min');
    expect(durationText(null)).toBe('time unknown');
  });

  it('names an experiment after its prompt, shortened', () => {
    expect(defaultName('  a  red kite ')).toBe('a red kite');
    expect(defaultName('')).toBe('Untitled experiment');
    expect(defaultName('x'.repeat(80))).toHaveLength(60);
  });
});

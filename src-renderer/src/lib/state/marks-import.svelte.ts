// "Import ratings from a folder…" (the Library's menu): the folder asked for, the core's
// library:import-marks run once at a time, and what it did said in plain words by the dialog
// (components/library/ImportMarksDialog.svelte).
import type { MarksImportInfo } from '@contract/ipc/library.ts';
import { invoke } from '../ipc.ts';

const plural = (n: number, one: string, many: string): string => `${n.toLocaleString()} ${n === 1 ? one : many}`;

/** What an import did, in sentences: restored, already so, and how many files gave nothing. */
export function importSummary(info: MarksImportInfo): string[] {
  if (info.found === 0 && info.skippedTotal === 0) return [`No exported Atelier files were found in ${info.from}.`];
  const lines: string[] = [];
  if (info.restored > 0) lines.push(`Restored the ratings and flags of ${plural(info.restored, 'item', 'items')}.`);
  if (info.unchanged > 0)
    lines.push(`${plural(info.unchanged, 'item already had its', 'items already had their')} ratings and flags.`);
  if (info.restored === 0 && info.unchanged === 0) lines.push('Nothing was changed.');
  if (info.unmatchedTotal > 0) lines.push(`${plural(info.unmatchedTotal, 'file', 'files')} matched nothing here:`);
  return lines;
}

class MarksImportState {
  open = $state(false);
  busy = $state(false);
  result = $state.raw<MarksImportInfo | null>(null);
  /** Why the last import could not run, in the core's words. */
  problem = $state<string | null>(null);

  show(): void {
    this.result = null;
    this.problem = null;
    this.open = true;
  }

  close(): void {
    if (!this.busy) this.open = false;
  }

  async run(folder: string): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    this.problem = null;
    try {
      const done = await invoke('library:import-marks', { from: folder });
      if (done.ok) this.result = done.value;
      else this.problem = done.error.message;
    } finally {
      this.busy = false;
    }
  }
}

export const marksImport = new MarksImportState();

// Progress on stderr: a redrawn bar on a terminal, plain lines otherwise (logs, pipes, CI),
// printed only when something visible changed so a long wait does not flood a log file.

export interface ProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface ProgressLine {
  /** `fraction` 0..1, or null when the size of the work is unknown. */
  update(status: string, fraction?: number | null): void;
  /** Ends the line (the bar stays on screen with its last state). */
  done(status?: string): void;
}

const BAR_WIDTH = 24;

export function createProgressLine(stream: ProgressStream, label: string): ProgressLine {
  return stream.isTTY ? terminalBar(stream, label) : plainLines(stream, label);
}

export const silentProgress: ProgressLine = { update() {}, done() {} };

function percentText(fraction: number | null | undefined): string {
  return fraction === null || fraction === undefined ? '' : `${Math.round(clamp(fraction) * 100)}%`;
}

const clamp = (fraction: number): number => Math.min(1, Math.max(0, fraction));

function terminalBar(stream: ProgressStream, label: string): ProgressLine {
  let last = '';
  let open = false;
  const draw = (status: string, fraction: number | null | undefined): void => {
    const filled = fraction === null || fraction === undefined ? 0 : Math.round(clamp(fraction) * BAR_WIDTH);
    const bar =
      fraction === null || fraction === undefined
        ? ''
        : `[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${percentText(fraction).padStart(4)}`;
    const width = Math.max(20, (stream.columns || 80) - 1);
    const text = [label, bar, status]
      .filter((part) => part !== '')
      .join(' ')
      .slice(0, width);
    if (text === last) return;
    last = text;
    open = true;
    // \x1b[2K clears the old line, so a shorter status leaves no tail behind.
    stream.write(`\r\x1b[2K${text}`);
  };
  return {
    update: (status, fraction) => draw(status, fraction),
    done(status) {
      if (status !== undefined) draw(status, 1);
      if (open) stream.write('\n');
      open = false;
    },
  };
}

function plainLines(stream: ProgressStream, label: string): ProgressLine {
  let lastStatus = '';
  let lastStep = -1;
  return {
    update(status, fraction) {
      // A line per status change and per quarter of the way, not per byte.
      const step = fraction === null || fraction === undefined ? -1 : Math.floor(clamp(fraction) * 4);
      if (status === lastStatus && step <= lastStep) return;
      lastStatus = status;
      lastStep = step;
      const percent = percentText(fraction);
      stream.write(`${label}: ${status}${percent ? ` ${percent}` : ''}\n`);
    },
    done(status) {
      if (status !== undefined && status !== lastStatus) stream.write(`${label}: ${status}\n`);
    },
  };
}

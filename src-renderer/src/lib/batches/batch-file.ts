// A CSV picked or dropped on the Batch dialog, read in the renderer as text: refused in plain words
// when it is too large to send as one batch (the browser-mode socket carries at most 4 MB a message)
// or is not text at all (a photo, a spreadsheet's binary file), so nothing unreadable is planned.

/** The largest batch file read (1 MB: about 10,000 rows of prompts, the most one batch makes). */
export const BATCH_FILE_MAX_BYTES = 1024 * 1024;

const megabytes = (bytes: number): string => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

export type BatchFileText = { ok: true; name: string; text: string } | { ok: false; message: string };

/** The file's text, or why it cannot be a batch. */
export async function readBatchFile(file: File): Promise<BatchFileText> {
  if (file.size > BATCH_FILE_MAX_BYTES) {
    return {
      ok: false,
      message: `“${file.name}” is ${megabytes(file.size)}; a batch file can be at most 1 MB. Split it into several batches.`,
    };
  }
  const notText = {
    ok: false as const,
    message: `“${file.name}” is not a text file. Choose a CSV file (comma-separated text; a spreadsheet can save one).`,
  };
  if (/^(image|video|audio)\//.test(file.type)) return notText;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(await file.arrayBuffer());
  } catch {
    return notText;
  }
  // A NUL never appears in text; binary files (zip-based spreadsheets, photos) are full of them.
  if (text.includes('\u0000')) return notText;
  if (text.trim() === '') return { ok: false, message: `“${file.name}” is empty.` };
  return { ok: true, name: file.name, text };
}

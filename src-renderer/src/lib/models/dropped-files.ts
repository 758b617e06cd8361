// The files of a drop, folders included: walks DataTransferItem.webkitGetAsEntry() directories
// (read in batches until empty, as the API hands them out), and falls back to the plain file list.

/** A dropped folder can hold anything; stop walking well past what one add may carry. */
const MAX_FILES = 200;
const HIDDEN = /^\./;

function readBatch(reader: FileSystemDirectoryReader): Promise<FileSystemEntry[]> {
  return new Promise((resolve, reject) => reader.readEntries(resolve, reject));
}

function fileOf(entry: FileSystemFileEntry): Promise<File> {
  return new Promise((resolve, reject) => entry.file(resolve, reject));
}

async function walk(entry: FileSystemEntry, out: File[]): Promise<void> {
  if (out.length >= MAX_FILES || HIDDEN.test(entry.name)) return;
  if (entry.isFile) {
    out.push(await fileOf(entry as FileSystemFileEntry));
    return;
  }
  if (!entry.isDirectory) return;
  const reader = (entry as FileSystemDirectoryEntry).createReader();
  for (;;) {
    const batch = await readBatch(reader);
    if (batch.length === 0) return;
    const sorted = [...batch].sort((a, b) => a.name.localeCompare(b.name, undefined, { numeric: true }));
    for (const child of sorted) await walk(child, out);
  }
}

/** Every file in the drop, in a stable order; entries must be taken before the event handler returns. */
export async function filesOfDrop(transfer: DataTransfer): Promise<File[]> {
  const items = [...transfer.items].filter((item) => item.kind === 'file');
  // Both lists die with the event: take entries and files synchronously, read them afterwards.
  const taken = items.map((item) => ({ entry: item.webkitGetAsEntry?.() ?? null, file: item.getAsFile() }));
  const files: File[] = [];
  for (const { entry, file } of taken) {
    if (entry?.isDirectory) await walk(entry, files).catch(() => undefined);
    else if (file) files.push(file);
    if (files.length >= MAX_FILES) break;
  }
  if (taken.length === 0) files.push(...transfer.files);
  return files.slice(0, MAX_FILES);
}

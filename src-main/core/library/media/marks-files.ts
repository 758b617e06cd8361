// Reads back what an export wrote: for each exported item of a folder (and of its subfolders one
// level down, where a collection's export goes), the asset it names and the marks it carries. An
// image and its JSON sidecar (`x.png` + `x.json`) are one item: the image's own XMP wins when it
// carries marks (it is what another photo tool edits), else the sidecar; a video or HLS copy has its
// sidecar only. A file that cannot be read (truncated, too large, not the image it says, not JSON)
// is skipped with the reason; nothing is written here.
import { open, readdir, stat } from 'node:fs/promises';
import { extname, join, relative } from 'node:path';
import { carriesMarks, readMarksSidecar, readMarksXmp, type FileMarks } from '../../../contract/file-marks.ts';
import type { MarksImportFileInfo } from '../../../contract/ipc/library.ts';
import { formatOf, readFileXmp } from './embed-settings.ts';
import { isWebp } from './webp-xmp.ts';

export const IMAGE_EXTENSIONS = new Set(['.png', '.jpg', '.jpeg', '.webp']);
/** An exported image larger than this is not read (the service's images are a few MB). */
export const MAX_IMAGE_BYTES = 256 * 1024 * 1024;
/** A sidecar is a few KB; one larger than this is not ours. */
export const MAX_SIDECAR_BYTES = 1024 * 1024;
/** Files looked at per import at most (a folder of a whole library export is well under). */
export const MAX_IMPORT_FILES = 100_000;

export interface FoundMarks extends FileMarks {
  /** The file the marks were read from, relative to the folder. */
  file: string;
}

export interface MarksFolderRead {
  found: FoundMarks[];
  /** Files that name no Atelier item or carry no marks. */
  unmatched: MarksImportFileInfo[];
  skipped: MarksImportFileInfo[];
}

const megabytes = (bytes: number): string => `${Math.round(bytes / (1024 * 1024))} MB`;

class Unreadable extends Error {}

/** The whole file, refused beyond `max` bytes without reading it. */
async function readCapped(path: string, max: number, what: string): Promise<Buffer> {
  const size = (await stat(path)).size;
  if (size > max) throw new Unreadable(`${what} is too large (${megabytes(size)}; at most ${megabytes(max)}).`);
  const handle = await open(path, 'r');
  try {
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

async function filesOf(from: string): Promise<string[]> {
  const files: string[] = [];
  const walk = async (dir: string, depth: number) => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      if (files.length >= MAX_IMPORT_FILES) return;
      const path = join(dir, entry.name);
      if (entry.isFile()) files.push(path);
      // An HLS copy's folder holds playlists and segments: its sidecar sits beside it.
      else if (entry.isDirectory() && depth === 0 && !entry.name.endsWith('.hls') && !entry.name.startsWith('.'))
        await walk(path, depth + 1);
    }
  };
  await walk(from, 0);
  return files.sort();
}

/** The marks of an exported image from its XMP; null when it carries none. Throws Unreadable. */
async function marksOfImage(path: string): Promise<FileMarks | null> {
  const bytes = await readCapped(path, MAX_IMAGE_BYTES, 'The image');
  if (!formatOf(bytes) && !isWebp(bytes)) throw new Unreadable('It is not a PNG, JPEG or WebP image.');
  let xmp: string | null;
  try {
    xmp = readFileXmp(bytes);
  } catch (error) {
    throw new Unreadable(
      `The image is damaged or cut short (${error instanceof Error ? error.message : 'unreadable'}).`,
    );
  }
  return xmp && carriesMarks(xmp) ? readMarksXmp(xmp) : null;
}

/** The marks a JSON sidecar carries; null when it names no item or carries none. Throws Unreadable. */
async function marksOfSidecar(path: string): Promise<{ marks: FileMarks | null; reason: string }> {
  const text = (await readCapped(path, MAX_SIDECAR_BYTES, 'The sidecar')).toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Unreadable('The sidecar is not valid JSON (damaged or cut short).');
  }
  const marks = readMarksSidecar(value);
  if (!marks) return { marks: null, reason: 'It names no Atelier item (no kind and id).' };
  if (!carriesMarks(value as Record<string, unknown>))
    return { marks: null, reason: 'It carries no rating or flag (exported before ratings existed).' };
  return { marks, reason: '' };
}

export async function readMarksFolder(from: string): Promise<MarksFolderRead> {
  const result: MarksFolderRead = { found: [], unmatched: [], skipped: [] };
  // An item: an image and/or its sidecar, paired by the name without the extension.
  const images: string[] = [];
  const sidecars = new Map<string, string>();
  for (const path of await filesOf(from)) {
    const ext = extname(path).toLowerCase();
    if (ext === '.json') sidecars.set(path.slice(0, path.length - ext.length), path);
    else if (IMAGE_EXTENSIONS.has(ext)) images.push(path);
  }
  const items: { image?: string; sidecar?: string }[] = [];
  const paired = new Set<string>();
  for (const image of images) {
    const sidecar = sidecars.get(image.slice(0, image.length - extname(image).length));
    if (sidecar) paired.add(sidecar);
    items.push(sidecar ? { image, sidecar } : { image });
  }
  for (const sidecar of sidecars.values()) if (!paired.has(sidecar)) items.push({ sidecar });
  const name = (path: string) => relative(from, path);
  const skip = (path: string, error: unknown) => {
    if (!(error instanceof Unreadable) && !(error instanceof Error && 'code' in error)) throw error;
    result.skipped.push({
      file: name(path),
      reason: error instanceof Unreadable ? error.message : `It could not be read (${(error as Error).message}).`,
    });
  };
  for (const { image, sidecar } of items) {
    let marks: FileMarks | null = null;
    let from: string | null = null;
    let reason = 'It carries no Atelier marks (no id, rating or flag in its XMP, and no sidecar).';
    if (image) {
      try {
        marks = await marksOfImage(image);
        from = image;
      } catch (error) {
        skip(image, error); // A damaged image: its sidecar may still say.
        if (!sidecar) continue;
      }
    }
    if (!marks && sidecar) {
      try {
        const read = await marksOfSidecar(sidecar);
        marks = read.marks;
        reason = read.reason;
        from = sidecar;
      } catch (error) {
        skip(sidecar, error);
        continue;
      }
    }
    const file = name(from ?? image ?? sidecar ?? '');
    if (marks) result.found.push({ ...marks, file });
    else result.unmatched.push({ file, reason });
  }
  return result;
}

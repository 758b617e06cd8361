// Writes the generation settings into a downloaded image, losslessly: PNG text chunks are inserted
// before the image data, a JPEG's XMP goes in an APP1 segment after the header segments; the
// compressed image data is copied byte for byte, never decoded or re-encoded. The format is the
// SD tools' `parameters` convention (contract/generation-settings.ts). Export keeps its sidecars and
// writes each image's copy through `embedForExport`: the same settings plus the user's marks and the
// asset's parents in XMP (contract/file-marks.ts): a PNG iTXt `XML:com.adobe.xmp` chunk, the JPEG's
// APP1 packet, a WebP's `XMP ` chunk (webp-xmp.ts); `readFileXmp` reads any of them back.
import { createHash } from 'node:crypto';
import { open, readFile, rename, rm } from 'node:fs/promises';
import { crc32 } from 'node:zlib';
import {
  formatParameters,
  formatXmp,
  PARAMETERS_KEYWORD,
  REQUEST_KEYWORD,
  seedOf,
  XMP_APP1_ID,
  type GenerationSettings,
} from '../../../contract/generation-settings.ts';
import { PNG_XMP_KEYWORD, type FileMarks } from '../../../contract/file-marks.ts';
import type { AssetRow } from '../../db/repos/asset-row.ts';
import type { AssetsRepo } from '../../db/repos/assets-repo.ts';
import { parseJson } from '../../db/values.ts';
import { safeLibraryPath } from '../folder/paths.ts';
import { embedXmpInWebp, isWebp, readWebpXmp } from './webp-xmp.ts';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const OUR_KEYWORDS = new Set([PARAMETERS_KEYWORD, REQUEST_KEYWORD, PNG_XMP_KEYWORD]);

export type EmbeddableFormat = 'png' | 'jpeg';

export function formatOf(bytes: Uint8Array): EmbeddableFormat | null {
  if (bytes.length > 8 && Buffer.from(bytes.subarray(0, 8)).equals(PNG_SIGNATURE)) return 'png';
  if (bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  return null;
}

/** The settings of an asset as the library knows them; null when nothing is known of how it was made. */
export function settingsOfAsset(asset: AssetRow): GenerationSettings | null {
  const params = parseJson(asset.params);
  const request =
    typeof params === 'object' && params !== null && !Array.isArray(params)
      ? (params as Record<string, unknown>)
      : null;
  if (!asset.prompt && !request) return null;
  return {
    prompt: asset.prompt ?? (typeof request?.['prompt'] === 'string' ? request['prompt'] : null),
    modelId: asset.model_id ?? (typeof request?.['modelID'] === 'string' ? request['modelID'] : null),
    seed: seedOf(request),
    width: asset.width,
    height: asset.height,
    preset: asset.preset,
    jobId: asset.job_id,
    request,
  };
}

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

const isLatin1 = (text: string): boolean => /^[\u0000-\u00ff]*$/.test(text);

/** tEXt when the text is Latin-1 (as PNG requires), else iTXt (UTF-8), as SD tools do; XMP is always iTXt. */
export function pngTextChunk(keyword: string, text: string, international = false): Buffer {
  if (!international && isLatin1(text))
    return pngChunk('tEXt', Buffer.concat([Buffer.from(`${keyword}\0`, 'latin1'), Buffer.from(text, 'latin1')]));
  // keyword \0, compression flag 0, method 0, language tag "" \0, translated keyword "" \0, text
  return pngChunk('iTXt', Buffer.concat([Buffer.from(`${keyword}\0\0\0\0\0`, 'latin1'), Buffer.from(text, 'utf8')]));
}

interface PngChunkRef {
  type: string;
  start: number;
  end: number;
  data: Buffer;
}

function pngChunks(bytes: Buffer): PngChunkRef[] {
  const chunks: PngChunkRef[] = [];
  let at = 8;
  while (at + 12 <= bytes.length) {
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    const end = at + 12 + length;
    if (end > bytes.length) throw new Error('truncated PNG chunk');
    chunks.push({ type, start: at, end, data: bytes.subarray(at + 8, at + 8 + length) });
    at = end;
    if (type === 'IEND') break;
  }
  return chunks;
}

/** The keyword of a text chunk, or null. */
function textKeyword(chunk: PngChunkRef): string | null {
  if (chunk.type !== 'tEXt' && chunk.type !== 'iTXt' && chunk.type !== 'zTXt') return null;
  const nul = chunk.data.indexOf(0);
  return nul > 0 ? chunk.data.toString('latin1', 0, nul) : null;
}

/**
 * The PNG with our text chunks (replacing earlier ones of ours) just before the first IDAT: the
 * settings when known, and an XMP packet when given (export).
 */
export function embedInPng(bytes: Buffer, settings: GenerationSettings | null, xmp: string | null = null): Buffer {
  const chunks = pngChunks(bytes);
  const firstData = chunks.findIndex((chunk) => chunk.type === 'IDAT');
  if (firstData < 0) throw new Error('a PNG without image data');
  const ours: Buffer[] = [];
  if (settings) ours.push(pngTextChunk(PARAMETERS_KEYWORD, formatParameters(settings)));
  if (settings?.request) ours.push(pngTextChunk(REQUEST_KEYWORD, JSON.stringify(settings.request)));
  if (xmp) ours.push(pngTextChunk(PNG_XMP_KEYWORD, xmp, true));
  const parts: Buffer[] = [bytes.subarray(0, 8)];
  chunks.forEach((chunk, index) => {
    if (index === firstData) parts.push(...ours);
    const keyword = textKeyword(chunk);
    const replaced = keyword === PNG_XMP_KEYWORD ? xmp !== null : settings !== null;
    if (index < firstData && keyword !== null && OUR_KEYWORDS.has(keyword) && replaced) return;
    parts.push(bytes.subarray(chunk.start, chunk.end));
  });
  const last = chunks.at(-1);
  if (last && last.end < bytes.length) parts.push(bytes.subarray(last.end));
  return Buffer.concat(parts);
}

/** Text chunks by keyword (tEXt and uncompressed iTXt), for tests and checks. */
export function readPngText(bytes: Buffer): Record<string, string> {
  const texts: Record<string, string> = {};
  for (const chunk of pngChunks(bytes)) {
    const keyword = textKeyword(chunk);
    if (keyword === null) continue;
    if (chunk.type === 'tEXt') texts[keyword] = chunk.data.toString('latin1', keyword.length + 1);
    else if (chunk.type === 'iTXt' && chunk.data[keyword.length + 1] === 0) {
      let at = keyword.length + 3;
      at = chunk.data.indexOf(0, at) + 1; // language tag
      at = chunk.data.indexOf(0, at) + 1; // translated keyword
      texts[keyword] = chunk.data.toString('utf8', at);
    }
  }
  return texts;
}

const SOS = 0xda;
const MAX_SEGMENT = 0xffff - 2;

/** The JPEG with one XMP APP1 segment (replacing an earlier one) after its JFIF/Exif header segments. */
export function embedInJpeg(bytes: Buffer, settings: GenerationSettings, createdAt: string | null): Buffer {
  let xmp = Buffer.from(formatXmp(settings, createdAt), 'utf8');
  if (XMP_APP1_ID.length + xmp.length > MAX_SEGMENT) {
    // Too long for one segment (a very long request): keep the text, drop the JSON copy.
    xmp = Buffer.from(formatXmp({ ...settings, request: null }, createdAt), 'utf8');
  }
  const payload = Buffer.concat([Buffer.from(XMP_APP1_ID, 'latin1'), xmp]);
  if (payload.length > MAX_SEGMENT) throw new Error('the settings are too long for one XMP segment');
  const segment = Buffer.alloc(4);
  segment.writeUInt16BE(0xffe1, 0);
  segment.writeUInt16BE(payload.length + 2, 2);

  const parts: Buffer[] = [bytes.subarray(0, 2)];
  let at = 2;
  let inserted = false;
  while (at + 4 <= bytes.length && bytes[at] === 0xff) {
    const marker = bytes[at + 1] ?? 0;
    if (marker === SOS) break;
    const length = bytes.readUInt16BE(at + 2);
    const end = at + 2 + length;
    const isHeader = marker === 0xe0 || (marker === 0xe1 && bytes.toString('latin1', at + 4, at + 10) === 'Exif\0\0');
    const isXmp = marker === 0xe1 && bytes.toString('latin1', at + 4, at + 4 + XMP_APP1_ID.length) === XMP_APP1_ID;
    if (!isHeader && !inserted) {
      parts.push(segment, payload);
      inserted = true;
    }
    if (!isXmp) parts.push(bytes.subarray(at, end));
    at = end;
  }
  if (!inserted) parts.push(segment, payload);
  parts.push(bytes.subarray(at));
  return Buffer.concat(parts);
}

/** The XMP packet of a JPEG, or null. */
export function readJpegXmp(bytes: Buffer): string | null {
  let at = 2;
  while (at + 4 <= bytes.length && bytes[at] === 0xff) {
    const marker = bytes[at + 1] ?? 0;
    if (marker === SOS) break;
    const length = bytes.readUInt16BE(at + 2);
    if (marker === 0xe1 && bytes.toString('latin1', at + 4, at + 4 + XMP_APP1_ID.length) === XMP_APP1_ID) {
      return bytes.toString('utf8', at + 4 + XMP_APP1_ID.length, at + 2 + length);
    }
    at += 2 + length;
  }
  return null;
}

/**
 * An exported copy of a library image: its settings (when known) and the asset's marks and parents in
 * its XMP. PNG, JPEG and WebP; null for another format (copied as it is). Throws on a damaged file.
 */
export function embedForExport(bytes: Buffer, asset: AssetRow, marks: FileMarks): Buffer | null {
  const settings = settingsOfAsset(asset);
  const createdAt = new Date(asset.created_at).toISOString();
  const withMarks: GenerationSettings = {
    ...(settings ?? { prompt: null, modelId: asset.model_id, request: null }),
    marks,
  };
  const format = formatOf(bytes);
  if (format === 'png') return embedInPng(bytes, settings, formatXmp(withMarks, createdAt));
  if (format === 'jpeg') return embedInJpeg(bytes, withMarks, createdAt);
  if (isWebp(bytes)) return embedXmpInWebp(bytes, formatXmp(withMarks, createdAt));
  return null;
}

/** The XMP packet of a PNG, JPEG or WebP file; null when it has none or is another format. Throws on a damaged file. */
export function readFileXmp(bytes: Buffer): string | null {
  const format = formatOf(bytes);
  if (format === 'png') {
    if (pngChunks(bytes).at(-1)?.type !== 'IEND') throw new Error('a truncated PNG: no IEND chunk');
    return readPngText(bytes)[PNG_XMP_KEYWORD] ?? null;
  }
  if (format === 'jpeg') {
    // The end-of-image marker cannot occur inside the compressed data (0xFF is stuffed there).
    const end = bytes.lastIndexOf(Buffer.from([0xff, 0xd9]));
    if (end < 0 || end < bytes.length - 1024) throw new Error('a truncated JPEG: no end marker');
    return readJpegXmp(bytes);
  }
  if (isWebp(bytes)) return readWebpXmp(bytes);
  return null;
}

export function embedSettings(bytes: Buffer, settings: GenerationSettings, createdAt: string | null): Buffer | null {
  const format = formatOf(bytes);
  if (format === 'png') return embedInPng(bytes, settings);
  if (format === 'jpeg') return embedInJpeg(bytes, settings, createdAt);
  return null;
}

/**
 * Puts the asset's settings into the (not yet committed) file at `path`: written beside it, flushed,
 * then renamed over it, so a crash leaves the old file or the new one. Returns the new size and
 * digest, or null when there is nothing to write (no settings, not a PNG or JPEG, a damaged file).
 */
export async function embedSettingsInFile(
  path: string,
  asset: AssetRow,
): Promise<{ bytes: number; sha256: string } | null> {
  const settings = settingsOfAsset(asset);
  if (!settings) return null;
  const original = await readFile(path);
  let updated: Buffer | null;
  try {
    updated = embedSettings(original, settings, new Date(asset.created_at).toISOString());
  } catch {
    return null;
  }
  if (!updated) return null;
  const temp = `${path}.settings`;
  const handle = await open(temp, 'w');
  try {
    await handle.writeFile(updated);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  return { bytes: updated.length, sha256: createHash('sha256').update(updated).digest('hex') };
}

/**
 * The library's hook, once a download is committed: the settings go into the file in place (written
 * beside it and renamed over it) and the asset's size and digest follow. Never fails a download over
 * its metadata: on any problem the file stays as the service sent it.
 */
export async function embedCommittedSettings(
  root: string,
  asset: AssetRow,
  assets: Pick<AssetsRepo, 'getBySeq' | 'setLocalFile'>,
): Promise<boolean> {
  if (asset.kind !== 'image' || asset.file_state !== 'downloaded' || !asset.local_path) return false;
  try {
    const path = await safeLibraryPath(root, asset.local_path);
    const written = await embedSettingsInFile(path, asset);
    if (!written) return false;
    const current = assets.getBySeq(asset.seq);
    if (current?.file_state !== 'downloaded' || current.local_path !== asset.local_path) return false;
    assets.setLocalFile(asset.seq, { fileState: 'downloaded', bytes: written.bytes, sha256: written.sha256 });
    return true;
  } catch {
    return false;
  }
}

// Export: copies downloaded files (an HLS copy as its folder) to a folder the user chose, each
// with a JSON sidecar of how it was made (prompt, params, model, job) and of the user's marks and
// its parents (contract/file-marks.ts), never clobbering files. An image's copy is written through
// `rewrite` (the facade passes media/embed-settings.ts `embedForExport`: its XMP gets the same marks).
import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { copyFile, cp, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { AppError } from '../../../contract/errors.ts';
import { modelName } from '../../../contract/names.ts';
import type { AssetRefInfo, LibraryExportInfo } from '../../../contract/ipc/library.ts';
import type { AssetRow } from '../../db/repos/asset-row.ts';
import { parseJson } from '../../db/values.ts';
import { marksOfAsset } from './asset-marks.ts';
import { isWithin, safeLibraryPath } from './paths.ts';

/** An exported image's bytes with its metadata written in, or null to copy the file as it is. */
export type ExportRewrite = (bytes: Buffer, asset: AssetRow) => Buffer | null;
/** Images larger than this are copied as they are (never read whole into memory). */
const REWRITE_MAX_BYTES = 256 * 1024 * 1024;

export interface ExportSource {
  ref: AssetRefInfo;
  asset: AssetRow | undefined;
}

/** The sidecar: what a person (or another tool) needs to know about the file, no signed links. */
export function sidecarOf(asset: AssetRow, fileName: string): Record<string, unknown> {
  const marks = marksOfAsset(asset);
  return {
    file: fileName,
    kind: asset.kind,
    id: asset.id,
    modelId: asset.model_id,
    model: asset.model_id ? modelName(asset.model_id) : null,
    jobId: asset.job_id,
    prompt: asset.prompt,
    preset: asset.preset,
    params: parseJson(asset.params),
    sourceAssetId: asset.source_asset_id,
    rating: marks.rating,
    flag: marks.flag,
    parents: marks.parents,
    createdAt: new Date(asset.created_at).toISOString(),
    width: asset.width,
    height: asset.height,
    durationMs: asset.duration_ms,
    format: asset.format,
    bytes: asset.bytes,
    sha256: asset.sha256,
    exportedBy: 'Atelier',
    exportedAt: new Date().toISOString(),
  };
}

const exists = (path: string): Promise<boolean> =>
  stat(path).then(
    () => true,
    () => false,
  );

/** `name.ext`, or `name-2.ext`, `name-3.ext`… when taken (by the file or its sidecar). */
async function freeName(dir: string, stem: string, ext: string): Promise<string> {
  for (let n = 1; ; n += 1) {
    const candidate = n === 1 ? stem : `${stem}-${n}`;
    if (!(await exists(join(dir, `${candidate}${ext}`))) && !(await exists(join(dir, `${candidate}.json`))))
      return candidate;
  }
}

/**
 * The file into place (never over another): through `rewrite` for an image, else byte for byte.
 * Answers the size and digest of a rewritten copy (the sidecar describes the file beside it).
 */
async function copyOut(
  source: string,
  destination: string,
  asset: AssetRow,
  rewrite?: ExportRewrite,
): Promise<{ bytes: number; sha256: string } | null> {
  if (rewrite && asset.kind === 'image' && (await stat(source)).size <= REWRITE_MAX_BYTES) {
    let rewritten: Buffer | null = null;
    try {
      rewritten = rewrite(await readFile(source), asset);
    } catch {
      rewritten = null; // A file its format's writer cannot read: exported as it is.
    }
    if (rewritten) {
      await writeFile(destination, rewritten, { flag: 'wx' });
      return { bytes: rewritten.length, sha256: createHash('sha256').update(rewritten).digest('hex') };
    }
  }
  await copyFile(source, destination, constants.COPYFILE_EXCL);
  return null;
}

export async function exportAssets(
  root: string,
  sources: readonly ExportSource[],
  to: string,
  rewrite?: ExportRewrite,
): Promise<LibraryExportInfo> {
  const target = resolve(to);
  if (isWithin(root, target)) {
    throw new AppError({
      code: 'invalid_argument',
      message: 'Choose a folder outside the library to export to.',
      field: 'to',
    });
  }
  await mkdir(target, { recursive: true });
  const result: LibraryExportInfo = { exported: 0, skipped: [], to: target };
  for (const { ref, asset } of sources) {
    if (!asset) {
      result.skipped.push({ asset: ref, reason: 'Not in the library.' });
      continue;
    }
    if (asset.file_state !== 'downloaded' || !asset.local_path) {
      result.skipped.push({ asset: ref, reason: 'Not downloaded yet; download it first.' });
      continue;
    }
    const source = await safeLibraryPath(root, asset.local_path).catch(() => null);
    if (!source || !(await exists(source))) {
      result.skipped.push({ asset: ref, reason: 'The local file is missing.' });
      continue;
    }
    if (asset.local_path.endsWith('.m3u8')) {
      // The copy is a folder (playlists + segments); it is exported whole.
      const folder = resolve(source, '..');
      const stem = await freeName(target, basename(folder).replace(/\.hls$/, ''), '.hls');
      await cp(folder, join(target, `${stem}.hls`), { recursive: true, errorOnExist: true, force: false });
      await writeFile(
        join(target, `${stem}.json`),
        JSON.stringify(sidecarOf(asset, `${stem}.hls/${basename(source)}`), null, 2),
      );
    } else {
      const ext = /\.[A-Za-z0-9]+$/.exec(source)?.[0] ?? '';
      const stem = await freeName(target, basename(source, ext), ext);
      const copy = await copyOut(source, join(target, `${stem}${ext}`), asset, rewrite);
      const sidecar = { ...sidecarOf(asset, `${stem}${ext}`), ...copy };
      await writeFile(join(target, `${stem}.json`), JSON.stringify(sidecar, null, 2));
    }
    result.exported += 1;
  }
  return result;
}

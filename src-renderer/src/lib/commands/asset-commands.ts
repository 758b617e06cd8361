// One asset's commands from the asset view: upscale, remix (reopen Create with the exact request),
// use as a video's first or last frame, copy the prompt or the image, show the file in its folder,
// drag the file out of the window (desktop app).
// Downloads, export and the two deletes are the Library's bulk actions applied to one asset.
import { FAMILY_OF_MAX, type AssetInfo } from '@contract/ipc/assets.ts';
import { upscaleTitle } from '@contract/job-title.ts';
import { invoke } from '../ipc.ts';
import { assetParams } from '../library/asset-params.ts';
import { assetKey } from '../library/asset-key.ts';
import { rememberFamilyName } from '../library/family-names.ts';
import { localFileUrl } from '../library/media-url.ts';
import { appInfo } from '../state/app-info.svelte.ts';
import { createImage } from '../state/create-image.svelte.ts';
import { createVideo } from '../state/create-video.svelte.ts';
import { jobList } from '../state/job-list.svelte.ts';
import { library } from '../state/library/list.svelte.ts';
import { names } from '../state/names.svelte.ts';
import { router } from '../state/router.svelte.ts';
import { serviceReach } from '../state/service-reach.svelte.ts';
import { toasts } from '../state/toasts.svelte.ts';

/**
 * Upscales the image, unless an upscale of it is already being sent or made (in any view or window):
 * a second press sends nothing and says so. Once that one has ended, a press is a new upscale.
 */
export async function upscale(asset: AssetInfo): Promise<void> {
  const name = upscaleTitle(asset.prompt);
  const result = await jobList.upscaleOnce(asset.id, () =>
    invoke('jobs:submit', { kind: 'upscale', body: { imageID: asset.id } }),
  );
  if (result === null) {
    toasts.info(`${name} is already on its way: it is not sent twice.`);
    return;
  }
  if (!result.ok) {
    serviceReach.noteError(result.error);
    toasts.error(`${name} was not started: ${result.error.message}`);
    return;
  }
  toasts.info(`${name} started: it appears in the Library beside its source when it is done.`);
}

/**
 * Opens the Create panel the asset came from, filled with the request that made it; what is sent from
 * there is a variation of the asset's job (its siblings in the family tree).
 */
export function remix(asset: AssetInfo, onLeave: () => void): void {
  const params = assetParams(asset);
  if (!params) return;
  if (asset.kind === 'video') {
    createVideo.loadRequest(params, asset.jobId);
    router.go('create-video');
  } else {
    createImage.loadRequest(params, asset.jobId);
    router.go('create-image');
  }
  onLeave();
}

export function useAsFrame(asset: AssetInfo, role: 'first_frame' | 'last_frame', onLeave: () => void): void {
  if (!asset.url) return;
  createVideo.addImage(asset.url);
  createVideo.setImageRole(createVideo.referenceImages.length - 1, role);
  router.go('create-video');
  onLeave();
  toasts.info(`Added as the video's ${role === 'first_frame' ? 'first' : 'last'} frame.`);
}

/** Why "Show the whole family" cannot run for this many assets, or null. */
export const familyUnavailable = (count: number): string | null =>
  count > FAMILY_OF_MAX ? `Choose at most ${FAMILY_OF_MAX} items to show their families.` : null;

/**
 * "Show the whole family": the Library shows these assets and all their relatives (results and uploads
 * alike), as the removable filter "Family of “…”" (AssetFilter.familyOf).
 */
export function showFamily(assets: readonly AssetInfo[], onLeave: () => void): void {
  if (assets.length === 0 || familyUnavailable(assets.length)) return;
  const keys = assets.map((asset) => {
    const key = assetKey(asset);
    rememberFamilyName(key, names.asset(asset));
    return key;
  });
  library.filters.apply({ familyOf: keys });
  router.go('library');
  onLeave();
}

export async function copyPrompt(asset: AssetInfo): Promise<void> {
  if (!asset.prompt) return;
  try {
    await navigator.clipboard.writeText(asset.prompt);
    toasts.info('Prompt copied.');
  } catch {
    toasts.error('The clipboard is not available here: select the prompt and copy it by hand.');
  }
}

export async function openWithSystemApp(asset: AssetInfo): Promise<void> {
  if (!asset.file.path) return;
  const result = await invoke('shell:open-item', { path: asset.file.path });
  if (!result.ok) {
    toasts.error(
      result.error.code === 'unsupported'
        ? 'Opening files in another app needs the desktop app; in the browser, open the library folder yourself.'
        : result.error.message,
    );
  }
}

export async function showInFolder(asset: AssetInfo): Promise<void> {
  if (!asset.file.path) return;
  const result = await invoke('shell:show-item-in-folder', { path: asset.file.path });
  if (!result.ok) {
    toasts.error(
      result.error.code === 'unsupported'
        ? 'Showing files in their folder needs the desktop app; in the browser, open the library folder yourself.'
        : result.error.message,
    );
  }
}

/** A picture as PNG (what every app pastes): a PNG file as it is, anything else drawn once to a canvas. */
async function pngOf(url: string): Promise<Blob> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`the image could not be read (${response.status})`);
  const blob = await response.blob();
  if (blob.type === 'image/png') return blob;
  const bitmap = await createImageBitmap(blob);
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
  canvas.getContext('2d')?.drawImage(bitmap, 0, 0);
  bitmap.close();
  return canvas.convertToBlob({ type: 'image/png' });
}

/**
 * Copies an image to the clipboard as a picture: in the desktop app from the library file (the shell's
 * clipboard), otherwise (browser mode, or not downloaded) through the browser's clipboard as PNG.
 */
export async function copyImage(asset: AssetInfo): Promise<void> {
  if (asset.kind !== 'image') {
    toasts.info('Only images can be copied as pictures.');
    return;
  }
  const local = localFileUrl(asset);
  if (appInfo.info?.host === 'electron' && local && asset.file.path) {
    const result = await invoke('shell:copy-image', { path: asset.file.path });
    if (result.ok) toasts.info('Image copied.');
    else toasts.error(result.error.message);
    return;
  }
  const url = local ?? (asset.removedFromService ? null : asset.url);
  if (!url) {
    toasts.error('There is no copy of it to put on the clipboard.');
    return;
  }
  try {
    // The blob is handed over as a promise, so the clipboard is claimed while the key press still counts.
    await navigator.clipboard.write([new ClipboardItem({ 'image/png': pngOf(url) })]);
    toasts.info('Image copied.');
  } catch (error) {
    toasts.error(
      `The image could not be copied${error instanceof Error && error.message ? `: ${error.message}` : ''}. Try Download, or Export.`,
    );
  }
}

/** The desktop app drags a downloaded file out of the window as a file (to the desktop or another app). */
export function startFileDrag(asset: AssetInfo): boolean {
  if (appInfo.info?.host !== 'electron' || asset.file.state !== 'downloaded' || !asset.file.path) return false;
  void invoke('shell:start-drag', { path: asset.file.path }).then((result) => {
    if (!result.ok) toasts.error(result.error.message);
  });
  return true;
}

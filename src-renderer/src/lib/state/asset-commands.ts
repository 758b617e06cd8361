// One asset's commands from the asset view: upscale, remix (reopen Create with the exact request),
// use as a video's first or last frame, copy the prompt, show the file in its folder.
// Downloads, export and the two deletes are the Library's bulk actions applied to one asset.
import type { AssetInfo } from '@contract/ipc/assets.ts';
import { invoke } from '../ipc.ts';
import { createImage } from './create-image.svelte.ts';
import { createVideo } from './create-video.svelte.ts';
import { queue } from './queue.svelte.ts';
import { router } from './router.svelte.ts';
import { serviceReach } from './service-reach.svelte.ts';
import { toasts } from './toasts.svelte.ts';

export async function upscale(asset: AssetInfo): Promise<void> {
  const result = await invoke('jobs:submit-upscale', { body: { imageID: asset.id } });
  if (!result.ok) {
    serviceReach.noteError(result.error);
    toasts.error(result.error.message);
    return;
  }
  queue.upsert(result.value);
  toasts.info('Upscale started: the new image appears in the Library when it is done.');
}

/** Opens the Create panel the asset came from, filled with the request that made it. */
export function remix(asset: AssetInfo, onLeave: () => void): void {
  const params = asset.params;
  if (!params) return;
  if (asset.kind === 'video') {
    createVideo.loadRequest(params);
    router.go('create-video');
  } else {
    createImage.loadRequest(params);
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

// The entries of an asset's context menu, the same on a Library tile, a Create result and the asset
// view: open, favourite, add to collection, copy, show in folder, remix, upscale, use as reference,
// download, remove the local copy, delete on the service (those two confirm in the host's dialog).
import type { AssetInfo } from '@contract/ipc/assets.ts';
import { assetAvailability } from '../library/asset-availability.ts';
import { draggedAssetOf } from '../library/asset-drag.ts';
import { refOf } from '../library/asset-key.ts';
import { formatCount } from '../library/format.ts';
import { inFlightReason } from '../jobs/in-flight.ts';
import * as commands from '../commands/asset-commands.ts';
import { createImage } from '../state/create-image.svelte.ts';
import { collections } from '../state/library-collections.svelte.ts';
import { cull } from '../state/cull.svelte.ts';
import { libraryActions } from '../state/library-actions.svelte.ts';
import { invoke } from '../ipc.ts';
import { assetView } from '../state/asset-view.svelte.ts';
import { jobList } from '../state/job-list.svelte.ts';
import {
  libraryMenu,
  pendingAssetWork,
  type MenuEntry,
  type MenuHost,
  type MenuPlacement,
} from '../state/library-menu.svelte.ts';
import { router } from '../state/router.svelte.ts';
import { serviceReach } from '../state/service-reach.svelte.ts';
import { toasts } from '../state/toasts.svelte.ts';

export interface AssetMenuOptions {
  host?: MenuHost;
  /** Opens the (single) asset; absent where it is already open. */
  onOpen?: () => void;
  /** Asks the host's confirmation dialog before removing local copies or deleting on the service. */
  onConfirm: (mode: 'local' | 'remote', assets: AssetInfo[]) => void;
  /** Asks for a folder to export to (the host's export dialog). */
  onExport?: (assets: AssetInfo[]) => void;
  /** The hand-made collection being shown, to offer "Remove from …". */
  collectionId?: number | null;
  /** Leaves the view the menu came from (the asset view closes before Create opens). */
  onLeave?: () => void;
}

/** Asks for a name (a small prompt in the page), then makes a collection and puts the assets in it. */
export type NamePrompt = (title: string, initial: string) => Promise<string | null>;
let namePrompt: NamePrompt = async () => null;
/** The Library registers its name dialog here (one place asks for collection names). */
export const setNamePrompt = (prompt: NamePrompt): void => {
  namePrompt = prompt;
};
export const askName = (title: string, initial = ''): Promise<string | null> => namePrompt(title, initial);

export async function newCollectionWith(assets: readonly AssetInfo[]): Promise<void> {
  const name = await askName('New collection', '');
  if (!name) return;
  const created = await collections.create(name);
  if (created && assets.length > 0) await collections.add(created.id, assets.map(refOf));
}

async function collectionEntries(assets: AssetInfo[]): Promise<MenuEntry[]> {
  if (!collections.loaded) await collections.load();
  const held = await collections.membership(assets.map(refOf));
  const entries: MenuEntry[] = collections.handMade.map((collection) => ({
    id: `collection-${collection.id}`,
    label: collection.name,
    checked: held.get(collection.id) === true,
    run: () => void collections.add(collection.id, assets.map(refOf)),
  }));
  if (entries.length > 0) entries.push({ separator: true });
  entries.push({ id: 'collection-new', label: 'New collection…', run: () => void newCollectionWith(assets) });
  return entries;
}

/** Why Upscale waits while an upscale of this image is being sent or made. */
const upscaleBusy = (asset: AssetInfo): string | null => {
  const flight = jobList.upscaleInFlight(asset.id);
  return flight ? inFlightReason(flight) : null;
};

const many = (n: number) => (n > 1 ? ` ${formatCount(n)} items` : '');

export function assetMenuEntries(assets: AssetInfo[], options: AssetMenuOptions): MenuEntry[] {
  const first = assets[0];
  if (!first) return [];
  const single = assets.length === 1;
  const ctx = {
    offline: serviceReach.offline,
    waitReason: serviceReach.waitReason,
    needsService: (what: string) => serviceReach.needsService(what),
  };
  const a = assetAvailability(first, ctx);
  const onlyOne = single ? null : 'Choose one item for this.';
  const leave = () => options.onLeave?.();
  const starred = assets.every((asset) => collections.isFavorite(asset));
  const shown = options.collectionId ? collections.byId(options.collectionId) : undefined;
  const local = assets.filter((asset) => asset.file.state === 'downloaded');
  const remote = assets.filter((asset) => asset.file.state === 'remote' || asset.file.state === 'failed');

  const entries: (MenuEntry | null)[] = [
    options.onOpen ? { id: 'open', label: 'Open', shortcut: 'Enter', unavailable: onlyOne, run: options.onOpen } : null,
    {
      id: 'favorite',
      label: starred ? `Remove from Favourites${many(assets.length)}` : `Add to Favourites${many(assets.length)}`,
      shortcut: 'F',
      checked: starred,
      run: () => void collections.setFavorite(assets, !starred),
    },
    {
      id: 'add-to-collection',
      label: 'Add to collection',
      shortcut: 'C',
      submenu: () => collectionEntries(assets),
    },
    // Several in the page's menu (the Library's selection): go through them in the culling view.
    !single && (options.host ?? 'page') === 'page'
      ? {
          id: 'cull',
          label: `Cull${many(assets.length)}…`,
          run: () => cull.open(assets, `${formatCount(assets.length)} selected`),
        }
      : null,
    shown && !shown.smart
      ? {
          id: 'remove-from-collection',
          label: `Remove from “${shown.name}”`,
          run: () => void collections.removeItems(shown.id, assets.map(refOf)),
        }
      : null,
    { separator: true },
    {
      id: 'copy-prompt',
      label: 'Copy prompt',
      unavailable: onlyOne ?? a.copyPrompt,
      run: () => void commands.copyPrompt(first),
    },
    {
      id: 'show-in-folder',
      label: 'Show in folder',
      unavailable: onlyOne ?? a.showInFolder,
      run: () => void commands.showInFolder(first),
    },
    { separator: true },
    { id: 'remix', label: 'Remix', unavailable: onlyOne ?? a.remix, run: () => commands.remix(first, leave) },
    {
      id: 'upscale',
      label: 'Upscale',
      unavailable: onlyOne ?? a.upscale ?? upscaleBusy(first),
      run: () => void commands.upscale(first),
    },
    {
      id: 'use-as-reference',
      label: 'Use as reference image',
      unavailable: onlyOne ?? (first.kind !== 'image' ? 'Only images can be reference images.' : a.firstFrame),
      run: () => {
        const refusal = createImage.addDropped(draggedAssetOf(first));
        if (refusal) {
          toasts.error(refusal);
          return;
        }
        leave();
        router.go('create-image');
        toasts.info('Added as a reference image.');
      },
    },
    {
      id: 'show-family',
      label: 'Show the whole family',
      unavailable: commands.familyUnavailable(assets.length),
      run: () => commands.showFamily(assets, leave),
    },
    { separator: true },
    {
      id: 'download',
      label: `Download${many(remote.length)}`,
      unavailable: remote.length === 0 ? a.download : serviceReach.offline ? serviceReach.waitReason : null,
      run: () => void libraryActions.download(remote.map(refOf)),
    },
    options.onExport
      ? {
          id: 'export',
          label: `Export with sidecar${single ? '' : 's'}…`,
          unavailable: local.length === 0 ? a.export : null,
          run: () => options.onExport?.(assets),
        }
      : null,
    {
      id: 'remove-local',
      label: single ? 'Remove local copy…' : `Remove local copies (${formatCount(local.length)})…`,
      unavailable: local.length === 0 ? a.removeLocal : null,
      run: () => options.onConfirm('local', assets),
    },
    {
      id: 'delete-remote',
      label: single ? 'Delete on the service…' : `Delete${many(assets.length)} on the service…`,
      danger: true,
      unavailable: single ? a.deleteRemote : serviceReach.needsService('Deleting from the service'),
      run: () => options.onConfirm('remote', assets),
    },
  ];
  return entries.filter((entry): entry is MenuEntry => entry !== null);
}

export function openAssetMenu(assets: AssetInfo[], at: MenuPlacement, options: AssetMenuOptions): void {
  if (assets.length === 0) return;
  const title =
    assets.length === 1
      ? `Actions for ${assets[0]?.prompt || assets[0]?.id}`
      : `Actions for ${formatCount(assets.length)} items`;
  libraryMenu.show(assetMenuEntries(assets, options), at, { host: options.host ?? 'page', title });
}

/** Straight to "Add to collection" (the C key). */
export async function openCollectionMenu(
  assets: AssetInfo[],
  at: MenuPlacement,
  host: MenuHost = 'page',
): Promise<void> {
  if (assets.length === 0) return;
  libraryMenu.show(await collectionEntries(assets), at, { host, title: 'Add to collection' });
}

/**
 * A menu for whichever element names an asset (`data-asset-id`, optionally `data-kind`): a delegated
 * handler for lists that hold only references (Create's results). Right-click, Shift+F10, the menu key.
 */
export function onAssetElementMenu(event: MouseEvent | KeyboardEvent): void {
  const isKey = event instanceof KeyboardEvent;
  if (isKey && !(event.key === 'ContextMenu' || (event.shiftKey && event.key === 'F10'))) return;
  const element = (event.target as Element | null)?.closest('[data-asset-id]');
  const id = element?.getAttribute('data-asset-id');
  if (!element || !id) return;
  event.preventDefault();
  const rect = element.getBoundingClientRect();
  const at = isKey ? { x: rect.left + 24, y: rect.top + 24 } : { x: event.clientX, y: event.clientY };
  const kind = element.getAttribute('data-kind');
  void (async () => {
    const kinds: ('image' | 'video')[] = kind === 'image' || kind === 'video' ? [kind] : ['image', 'video'];
    for (const k of kinds) {
      const found = await invoke('assets:get', { kind: k, id });
      if (found.ok) {
        openAssetMenu([found.value], at, {
          onOpen: () => void assetView.showRef({ kind: k, id }),
          onConfirm: (mode, assets) => (pendingAssetWork.confirm = { mode, assets }),
          onExport: (assets) => (pendingAssetWork.exporting = assets),
        });
        return;
      }
    }
    toasts.info('That item is not in the library yet.');
  })();
}

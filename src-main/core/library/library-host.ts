// Keeps the open account's Library: started for an account session (core/account-services.ts
// opens and closes it), restarted when the library folder changes; runs folder moves (downloads
// held meanwhile) and serves media for the hosts (browser-mode route, Electron protocol).
// The library's own code (download queue, thumbnails, transfers, folder moves) is loaded just
// after the start, not during it: the first screen reads the account's database only.
import { AppError } from '../../contract/errors.ts';
import { loadAfterStart } from '../after-start.ts';
import type { LibraryMoveInfo } from '../../contract/ipc/library.ts';
import type { AccountSession } from '../account/types.ts';
import type { EventBus } from '../events.ts';
import type { ProgressAggregate } from '../host/progress.ts';
import type { Settings } from '../settings/settings.ts';
import type { Library, LibraryDeps } from './library.ts';
import type { Foreground } from './paced-work.ts';
import { ensureLibraryMarker } from './folder/library-marker.ts';
import { encodeMediaPath, serveLocalMedia, type MediaReply, type MediaRequest } from './media/media-serving.ts';
import { posterLinkVideoId } from '../host/poster-links.ts';

// The one door into the library from outside it (the import rules, .dependency-cruiser.cjs):
// what the hosts (media routes), the CLI and the handlers use of its rooms.
export {
  decodeMediaPath,
  electronMediaUrl,
  MEDIA_SCHEME,
  mediaPathFromProtocolUrl,
  toWebResponse,
  type MediaReply,
  type MediaRequest,
} from './media/media-serving.ts';
export { MIN_FREE_BYTES, statfsFreeBytes } from './downloads/download-space.ts';
export { assertNoSymlinkEscape, isWithin, safeLibraryPath } from './folder/paths.ts';
export { isEmptyOrLibrary } from './folder/library-marker.ts';
export { readMarksFolder, type FoundMarks } from './media/marks-files.ts';

export interface LibraryHostDeps {
  dataDir: string;
  settings: Settings;
  events: EventBus;
  progress?: ProgressAggregate;
  logError(message: string, error: unknown): void;
  /** Expected trouble, quietly (a video link that gave no poster). */
  logInfo?(message: string): void;
  /** Whom the library's background work gives way to (core.ts notes each call and media file served). */
  foreground?: Foreground;
  /** Tests: shorter intervals, injected fetch. */
  libraryOptions?: Partial<LibraryDeps>;
}

export interface LibraryHost {
  /** Starts the library of an opened account (after a start-up check or a move in progress). */
  open(session: AccountSession): void;
  /** Stops the account's library before its database closes; outputs waiting for it are dropped. */
  closeSession(): Promise<void>;
  current(): Library | null;
  /** The open account's library, or an 'auth' error telling the user to add a key or try the demo. */
  require(): Library;
  /** Like require(), after waiting out a start-up or a restart in progress (for handlers). */
  library(): Promise<Library>;
  /** New job outputs to download (Auto-download is decided by the caller). */
  enqueueOutputs(refs: readonly { kind: 'image' | 'video'; id: string }[]): void;
  move(to: string): Promise<LibraryMoveInfo>;
  /** A move is under way (the folder must not change by other means meanwhile). */
  moving(): boolean;
  abortMove(): void;
  /**
   * Serves a library-relative path of the library folder (every account's files live under it),
   * and the open account's poster links of videos not downloaded yet (poster-links.ts).
   */
  serveMedia(request: MediaRequest): Promise<MediaReply>;
  close(): Promise<void>;
}

/** Outputs that arrive while no library runs (starting up, folder moving) wait in memory. */
export function createLibraryHost(deps: LibraryHostDeps): LibraryHost {
  const { settings } = deps;
  let library: Library | null = null;
  let session: AccountSession | null = null;
  let moving: AbortController | null = null;
  let ready = false;
  let pendingOutputs: { kind: 'image' | 'video'; id: string }[] = [];
  let closed = false;

  const libraryCode = loadAfterStart(() =>
    Promise.all([import('./library.ts'), import('./media/media-http.ts'), import('./folder/library-move.ts')]).then(
      ([library, mediaHttp, move]) => ({ ...library, ...mediaHttp, ...move }),
    ),
  );
  let code: Awaited<typeof libraryCode.loaded> | null = null;

  const startFor = (next: AccountSession): void => {
    session = next;
    if (moving || !ready || !code || closed) return; // started once the move (or the start-up check) is over
    const { createLibrary, scopedMediaFetch } = code;
    // The folder says it is a library, so it can be pointed at again (library:use-folder).
    const root = settings.get().libraryDir;
    ensureLibraryMarker(root).catch((error: unknown) => deps.logError('Marking the library folder failed', error));
    library = createLibrary({
      db: next.cache.sqlite,
      client: next.client,
      root: () => settings.get().libraryDir,
      area: next.area,
      concurrency: () => settings.get().downloadConcurrency,
      emitDownloads: (change) => deps.events.emit('downloads:changed', change),
      emitAssets: (change) => deps.events.emit('assets:changed', change),
      emitTrash: (summary) => deps.events.emit('trash:changed', summary),
      ...(deps.progress ? { progress: deps.progress } : {}),
      logError: deps.logError,
      ...(deps.logInfo ? { logInfo: deps.logInfo } : {}),
      mediaFetch: deps.libraryOptions?.queue?.fetch ?? scopedMediaFetch(next.baseUrl),
      ...(deps.foreground ? { foreground: deps.foreground } : {}),
      ...deps.libraryOptions,
      queue: { fetch: scopedMediaFetch(next.baseUrl), ...deps.libraryOptions?.queue },
    });
    library.start();
    if (pendingOutputs.length > 0) library.enqueueOutputs(pendingOutputs.splice(0));
  };

  // A move interrupted after its switch is finished before any library touches the folder.
  let transition: Promise<unknown>;
  const readiness = libraryCode.loaded
    .then(async (loaded) => {
      code = loaded;
      await loaded
        .finishInterruptedMove(deps.dataDir, settings.get().libraryDir)
        .catch((error: unknown) => deps.logError('Finishing an interrupted library move failed', error));
    })
    .catch((error: unknown) => deps.logError('Loading the library failed', error))
    .finally(() => {
      ready = true;
      if (session && !library) startFor(session);
    });
  transition = readiness;

  const stopCurrent = async (): Promise<void> => {
    const previous = library;
    library = null;
    await previous?.stop();
  };

  const stopSettings = settings.onChange((_values, changed) => {
    if (changed.includes('downloadConcurrency')) library?.queue.poke();
    // A folder chosen by hand (not moved): start over there; files missing there become remote.
    if (changed.includes('libraryDir') && !moving && session) {
      const current = session;
      transition = stopCurrent().then(() => startFor(current));
    }
  });

  return {
    open: startFor,
    async closeSession() {
      session = null;
      pendingOutputs = [];
      await stopCurrent();
    },
    current: () => library,
    require() {
      if (library) return library;
      if (moving)
        throw new AppError({ code: 'conflict', message: 'The library folder is moving; try again when it is done.' });
      if (session)
        throw new AppError({ code: 'conflict', message: 'The library is getting ready; try again in a moment.' });
      throw new AppError({ code: 'auth', message: 'Add an API key or try the demo to use the library.' });
    },
    async library() {
      await libraryCode.now().catch(() => undefined);
      await transition.catch(() => undefined);
      return this.require();
    },
    enqueueOutputs(refs) {
      try {
        if (library) library.enqueueOutputs(refs);
        else if (session) pendingOutputs.push(...refs);
      } catch (error) {
        deps.logError('Queueing new outputs for download failed', error);
      }
    },
    async move(to) {
      if (moving) throw new AppError({ code: 'conflict', message: 'The library folder is already moving.' });
      const controller = new AbortController();
      moving = controller;
      try {
        // No transfer, thumbnail or clean-up touches the folder while it moves.
        if (library) await library.queue.holdForMove();
        await stopCurrent();
        const { moveLibrary } = await libraryCode.now();
        return await moveLibrary({
          from: settings.get().libraryDir,
          to,
          dataDir: deps.dataDir,
          signal: controller.signal,
          switchTo: (target) => void settings.update({ libraryDir: target }),
          onProgress: (info) => deps.events.emit('library:move-progress', info),
        });
      } finally {
        moving = null;
        // Back to work in the new folder (unless the account closed meanwhile).
        const reopened: AccountSession | null = session;
        if (reopened) startFor(reopened);
      }
    },
    moving: () => moving !== null,
    abortMove() {
      moving?.abort();
    },
    async serveMedia(request) {
      const videoId = posterLinkVideoId(request.path);
      if (videoId !== null) {
        // The first screen's tiles ask for their posters at once, while the library's code may
        // still be loading (loadAfterStart): answered once it runs, not with a 404 the tile keeps.
        if (!library && session && !moving && !closed) {
          void libraryCode.now();
          await transition;
        }
        if (library) return library.servePoster(videoId, request);
      }
      return serveLocalMedia(settings.get().libraryDir, request);
    },
    async close() {
      closed = true;
      moving?.abort();
      await readiness;
      stopSettings();
      await stopCurrent();
    },
  };
}

/** Browser mode's URL for a library file (the shell passes its own `atelier-media://library/…`). */
export const browserMediaUrl = (relativePath: string): string => `/media/${encodeMediaPath(relativePath)}`;

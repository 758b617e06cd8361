// The tray icon and whether it is really seen. The icon is always made (cheap; a StatusNotifier
// host may appear later), but closing hides the window to it only while a host shows it: asked
// at start, and again when the window gains focus (a panel that started after the app).
import type { QueueCountsInfo } from '../../contract/ipc/shell.ts';
import type { AppTray } from '../tray.ts';
import type { UpdateOffer } from '../updater/update-policy.ts';

export interface TrayPresence {
  /** A tray icon exists and something shows it: closing may hide the window. */
  available(): boolean;
  tray(): AppTray | null;
  update(counts: QueueCountsInfo, pollingPaused: boolean, demo: boolean): void;
  /** A downloaded update to offer ("Restart to Update"), kept across later updates of the counts. */
  offerUpdate(offer: UpdateOffer | null): void;
  /** Asks the desktop again, at most once per interval, while no host was found. */
  recheck(): void;
  destroy(): void;
}

export interface TrayPresenceOptions {
  create(): AppTray;
  /** Asks the desktop whether a tray icon is shown (tray-host.ts). */
  isShown(): Promise<boolean>;
  /** The first answer, asked while Electron was starting. */
  shownAtStart: Promise<boolean>;
  log(message: string, error?: unknown): void;
  now?: () => number;
  recheckIntervalMs?: number;
}

export function startTrayPresence(options: TrayPresenceOptions): TrayPresence {
  const now = options.now ?? Date.now;
  const interval = options.recheckIntervalMs ?? 30_000;
  let tray: AppTray | null = null;
  try {
    tray = options.create();
  } catch (error) {
    options.log('no tray icon could be made; closing the window quits', error);
  }
  // Not awaited: the window never waits for the desktop's answer (closing quits until it comes).
  let shown = false;
  let asking = true;
  let lastAsked = now();
  let offer: UpdateOffer | null = null;
  let last: { counts: QueueCountsInfo; pollingPaused: boolean; demo: boolean } | null = null;
  const hear = (answer: boolean, first: boolean): void => {
    if (answer && !shown && !first) options.log('a tray host appeared; closing the window keeps the app in the tray');
    if (!answer && first && tray) options.log('no tray host is showing tray icons; closing the window quits');
    shown = answer;
  };
  void options.shownAtStart
    .then((answer) => hear(answer, true))
    .catch(() => hear(false, true))
    .finally(() => (asking = false));
  return {
    available: () => tray !== null && shown,
    tray: () => tray,
    update(counts, pollingPaused, demo) {
      last = { counts, pollingPaused, demo };
      tray?.update(counts, pollingPaused, demo, offer);
    },
    offerUpdate(next) {
      offer = next;
      if (last) tray?.update(last.counts, last.pollingPaused, last.demo, offer);
    },
    recheck() {
      if (shown || !tray || asking || now() - lastAsked < interval) return;
      asking = true;
      lastAsked = now();
      void options
        .isShown()
        .then((answer) => hear(answer, false))
        .catch(() => {})
        .finally(() => (asking = false));
    },
    destroy: () => tray?.destroy(),
  };
}

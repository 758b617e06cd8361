// Runs the update policy over time: checks at start and every six hours, downloads in the
// background, offers "Restart to Update" once downloaded, and restarts only when the user asked
// and nothing is in flight. Electron-free: the update source, the in-flight view, the clock and
// the UI are handed in (start-updater.ts passes electron-updater and the core; tests pass fakes
// or a real electron-updater against a loopback feed).
import {
  CHECK_INTERVAL_MS,
  classifyUpdateError,
  FIRST_CHECK_DELAY_MS,
  IDLE_SETTLE_MS,
  inFlightSummary,
  restartDecision,
  updateOffer,
  type InFlight,
  type UpdateOffer,
  type UpdatePhase,
} from './update-policy.ts';

export type CheckOutcome =
  /** The updater does not run for this install (electron-updater's checkForUpdates answered null). */
  { kind: 'inactive'; reason: string } | { kind: 'none'; latest: string } | { kind: 'available'; version: string };

/** The feed and the installer: electron-updater in the app (electron-updater-source.ts). */
export interface UpdateSource {
  check(): Promise<CheckOutcome>;
  /** Downloads the version the last check found (checksum verified by electron-updater). */
  download(onProgress: (percent: number) => void): Promise<void>;
  /** Quits the app and installs the downloaded update. */
  install(): void;
}

/** What is running now, as the core reports it (in-flight.ts). */
export interface InFlightSource {
  current(): InFlight;
  /** Called on every change; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
}

export interface UpdaterLog {
  info(message: string): void;
  warn(message: string, error?: unknown): void;
}

export interface Timers {
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface UpdateControllerDeps {
  source: UpdateSource;
  inFlight: InFlightSource;
  log: UpdaterLog;
  /** Menu and tray: called whenever what they should offer changes. */
  onOffer(offer: UpdateOffer | null): void;
  /** A system notification, once per downloaded version. */
  notifyReady(version: string): void;
  now?: () => number;
  timers?: Timers;
}

export interface UpdateController {
  /** Schedules the first check (FIRST_CHECK_DELAY_MS) and starts following work in flight. */
  start(): void;
  /** One check (and download when there is something new); never throws. */
  checkNow(): Promise<void>;
  /** The user asked to restart: now when idle, else as soon as the work in flight is done. */
  restartToUpdate(): void;
  phase(): UpdatePhase;
  offer(): UpdateOffer | null;
  stop(): void;
}

const realTimers: Timers = {
  setTimeout: (run, ms) => {
    const handle = setTimeout(run, ms);
    // A pending check never keeps the process alive on its own.
    handle.unref?.();
    return handle;
  },
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export function createUpdateController(deps: UpdateControllerDeps): UpdateController {
  const now = deps.now ?? Date.now;
  const timers = deps.timers ?? realTimers;
  let phase: UpdatePhase = { kind: 'idle' };
  let stopped = false;
  let started = false;
  let checkTimer: unknown = null;
  let settleTimer: unknown = null;
  let unsubscribe: (() => void) | null = null;
  let idleSince: number | null = null;
  let lastOffer = 'null';
  const notified = new Set<string>();

  const publish = (): void => {
    const offer = updateOffer(phase, deps.inFlight.current());
    const text = JSON.stringify(offer);
    if (text === lastOffer) return;
    lastOffer = text;
    deps.onOffer(offer);
  };

  const setPhase = (next: UpdatePhase): void => {
    phase = next;
    publish();
  };

  const scheduleCheck = (ms: number): void => {
    if (stopped) return;
    if (checkTimer !== null) timers.clearTimeout(checkTimer);
    checkTimer = timers.setTimeout(() => {
      checkTimer = null;
      void checkNow();
    }, ms);
  };

  const trackIdle = (): void => {
    const busy = inFlightSummary(deps.inFlight.current()) !== null;
    if (busy) idleSince = null;
    else idleSince ??= now();
  };

  const install = (version: string): void => {
    setPhase({ kind: 'installing', version });
    deps.log.info(`restarting to install ${version}`);
    try {
      deps.source.install();
    } catch (error) {
      deps.log.warn(`could not install ${version}; it installs on the next quit`, error);
      setPhase({ kind: 'ready', version, restartRequested: false });
    }
  };

  const maybeRestart = (): void => {
    if (stopped || phase.kind !== 'ready' || !phase.restartRequested) return;
    const decision = restartDecision(deps.inFlight.current(), idleSince, now());
    if (decision.now) return install(phase.version);
    // Idle but not yet settled: look again when it will have been idle long enough.
    if (idleSince !== null && settleTimer === null) {
      settleTimer = timers.setTimeout(
        () => {
          settleTimer = null;
          trackIdle();
          maybeRestart();
        },
        Math.max(0, idleSince + IDLE_SETTLE_MS - now()),
      );
    }
  };

  const onInFlightChange = (): void => {
    trackIdle();
    publish();
    maybeRestart();
  };

  async function checkNow(): Promise<void> {
    // One check at a time; none once an update is downloading, downloaded or installing.
    if (stopped || phase.kind !== 'idle') return;
    setPhase({ kind: 'checking' });
    let version: string | null = null;
    try {
      const outcome = await deps.source.check();
      if (stopped) return;
      if (outcome.kind === 'inactive') {
        deps.log.info(`updates do not run for this install: ${outcome.reason}`);
        setPhase({ kind: 'unsupported', reason: outcome.reason });
        return;
      }
      if (outcome.kind === 'none') {
        deps.log.info(`up to date (the feed's latest is ${outcome.latest})`);
        setPhase({ kind: 'idle' });
        scheduleCheck(CHECK_INTERVAL_MS);
        return;
      }
      version = outcome.version;
      deps.log.info(`downloading update ${version} in the background`);
      setPhase({ kind: 'downloading', version, percent: null });
      const downloading = version;
      await deps.source.download((percent) => {
        if (phase.kind === 'downloading') phase = { kind: 'downloading', version: downloading, percent };
      });
      if (stopped) return;
      deps.log.info(`update ${version} downloaded; it installs on quit or through Restart to Update`);
      setPhase({ kind: 'ready', version, restartRequested: false });
      if (!notified.has(version)) {
        notified.add(version);
        deps.notifyReady(version);
      }
    } catch (error) {
      if (stopped) return;
      const outcome = classifyUpdateError(error);
      if (outcome.level === 'info') deps.log.info(outcome.message);
      else deps.log.warn(outcome.message, error);
      setPhase({ kind: 'idle' });
      scheduleCheck(outcome.retryInMs);
    }
  }

  return {
    start() {
      if (started || stopped) return;
      started = true;
      unsubscribe = deps.inFlight.subscribe(onInFlightChange);
      trackIdle();
      scheduleCheck(FIRST_CHECK_DELAY_MS);
    },
    checkNow,
    restartToUpdate() {
      if (stopped || phase.kind !== 'ready') return;
      if (!phase.restartRequested) {
        const busy = inFlightSummary(deps.inFlight.current());
        if (busy !== null) deps.log.info(`restart to update waits for ${busy}`);
        setPhase({ ...phase, restartRequested: true });
      }
      trackIdle();
      maybeRestart();
    },
    phase: () => phase,
    offer: () => updateOffer(phase, deps.inFlight.current()),
    stop() {
      stopped = true;
      unsubscribe?.();
      unsubscribe = null;
      if (checkTimer !== null) timers.clearTimeout(checkTimer);
      if (settleTimer !== null) timers.clearTimeout(settleTimer);
      checkTimer = null;
      settleTimer = null;
    },
  };
}

// What the auto-updater decides, as pure functions: whether updates run at all, when to check,
// what menu and tray offer, whether a restart may happen now, and how a failure is reported.
// No electron here (update-controller.ts runs the decisions, start-updater.ts is the glue).

/** A regular check: at start (after a short pause) and then every six hours. */
export const CHECK_INTERVAL_MS = 6 * 60 * 60_000;
/** The first check waits until the window and the core have settled. */
export const FIRST_CHECK_DELAY_MS = 20_000;
/** After an offline failure the next try comes sooner than the regular interval. */
export const OFFLINE_RETRY_MS = 30 * 60_000;
/**
 * A restart the user asked for waits until nothing has been in flight for this long, so the
 * gap between two queued uploads (one finished, the next not yet started) never counts as idle.
 */
export const IDLE_SETTLE_MS = 5_000;

export interface UpdaterEnvironment {
  /** app.isPackaged: a development run (`npm start`, the e2e) has nothing to update. */
  isPackaged: boolean;
  env: Record<string, string | undefined>;
}

export type Availability = { enabled: true } | { enabled: false; reason: string };

/**
 * Updates run in packaged builds only. Demo mode does not turn them off: the demo is an account
 * of the same installed app, and a person trying it gets the same fixes. ATELIER_DISABLE_UPDATES=1
 * turns them off (managed installs, a packaged build under test).
 */
export function updatesAvailability(environment: UpdaterEnvironment): Availability {
  if (!environment.isPackaged) return { enabled: false, reason: 'a development build (not packaged)' };
  if (environment.env['ATELIER_DISABLE_UPDATES'] === '1')
    return { enabled: false, reason: 'turned off by ATELIER_DISABLE_UPDATES=1' };
  return { enabled: true };
}

/** What is running now that a restart would cut off; the core knows (see in-flight.ts). */
export interface InFlight {
  /** Jobs whose request is on its way to the service (state 'submitting'). */
  submissions: number;
  /** Uploads sending bytes now. */
  uploads: number;
  /** Downloads the library is fetching or preparing now. */
  downloads: number;
  /** The library folder is being moved. */
  libraryMove: boolean;
}

export const NOTHING_IN_FLIGHT: InFlight = { submissions: 0, uploads: 0, downloads: 0, libraryMove: false };

const count = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;
const sane = (n: number): number => (Number.isFinite(n) && n > 0 ? Math.floor(n) : 0);

/** "2 uploads and 1 download", or null when nothing is in flight. */
export function inFlightSummary(inFlight: InFlight): string | null {
  const parts: string[] = [];
  const submissions = sane(inFlight.submissions);
  const uploads = sane(inFlight.uploads);
  const downloads = sane(inFlight.downloads);
  if (submissions > 0) parts.push(count(submissions, 'job being sent', 'jobs being sent'));
  if (uploads > 0) parts.push(count(uploads, 'upload', 'uploads'));
  if (downloads > 0) parts.push(count(downloads, 'download', 'downloads'));
  if (inFlight.libraryMove) parts.push('the library move');
  if (parts.length === 0) return null;
  if (parts.length === 1) return parts[0] as string;
  return `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

export type RestartDecision = { now: true } | { now: false; waitingFor: string };

/**
 * Never restart over work in flight. `idleSince` is when the in-flight set last became empty
 * (null while something runs): a restart needs it to have stayed empty for IDLE_SETTLE_MS.
 */
export function restartDecision(inFlight: InFlight, idleSince: number | null, now: number): RestartDecision {
  const busy = inFlightSummary(inFlight);
  if (busy !== null) return { now: false, waitingFor: busy };
  if (idleSince === null || now - idleSince < IDLE_SETTLE_MS) return { now: false, waitingFor: 'work to settle' };
  return { now: true };
}

export type UpdatePhase =
  | { kind: 'idle' }
  | { kind: 'checking' }
  | { kind: 'downloading'; version: string; percent: number | null }
  /** Downloaded: installs on the next quit, or now through "Restart to Update". */
  | { kind: 'ready'; version: string; restartRequested: boolean }
  | { kind: 'installing'; version: string }
  /** This install cannot update itself (e.g. Linux without AppImage or a deb); no more checks. */
  | { kind: 'unsupported'; reason: string };

/** What the app menu and the tray show for an update; null shows nothing. */
export interface UpdateOffer {
  version: string;
  label: string;
  /** False while a restart the user asked for waits for work in flight. */
  enabled: boolean;
}

export const RESTART_LABEL = 'Restart to Update';

/** Only a downloaded update is offered: checking and downloading stay silent. */
export function updateOffer(phase: UpdatePhase, inFlight: InFlight): UpdateOffer | null {
  if (phase.kind === 'installing') return { version: phase.version, label: 'Restarting to Update…', enabled: false };
  if (phase.kind !== 'ready') return null;
  if (!phase.restartRequested) return { version: phase.version, label: RESTART_LABEL, enabled: true };
  const busy = inFlightSummary(inFlight);
  return {
    version: phase.version,
    label: busy === null ? 'Restarting to Update…' : `Update Waits for ${busy}…`,
    enabled: false,
  };
}

export interface ReadyNotification {
  title: string;
  body: string;
}

/** Said once per downloaded version; clicking it is the same as "Restart to Update". */
export function readyNotification(appName: string, version: string): ReadyNotification {
  return {
    title: `${appName} ${version} is ready`,
    body: 'Click to restart now, or it installs the next time you quit. Work in progress is never cut off.',
  };
}

export type UpdateErrorKind = 'offline' | 'no-feed' | 'failed';

export interface UpdateErrorOutcome {
  kind: UpdateErrorKind;
  /** One line for the log; never shown in a dialog. */
  message: string;
  level: 'info' | 'warn';
  retryInMs: number;
}

const OFFLINE_CODES = new Set([
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'ENETDOWN',
  'EPIPE',
]);

const textOf = (error: unknown): string =>
  error instanceof Error ? error.message : typeof error === 'string' ? error : JSON.stringify(error);

function codeOf(error: unknown): string | null {
  if (typeof error !== 'object' || error === null) return null;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : null;
}

function statusOf(error: unknown): number | null {
  if (typeof error !== 'object' || error === null) return null;
  const status = (error as { statusCode?: unknown }).statusCode;
  return typeof status === 'number' ? status : null;
}

/**
 * Every failure is logged quietly and retried later: offline (Node's and Chromium's network
 * codes) at info level and sooner; a feed that is not there (404, no latest.yml) or anything
 * else (bad checksum, unreadable feed) as a warning at the regular interval.
 */
export function classifyUpdateError(error: unknown): UpdateErrorOutcome {
  const code = codeOf(error);
  const text = textOf(error);
  const firstLine = text.split('\n')[0] ?? text;
  if (
    (code !== null && OFFLINE_CODES.has(code)) ||
    /net::ERR_(INTERNET_DISCONNECTED|NAME_NOT_RESOLVED|NETWORK_|CONNECTION_|ADDRESS_UNREACHABLE|TIMED_OUT|PROXY_)/.test(
      text,
    )
  ) {
    return {
      kind: 'offline',
      message: `update check skipped, offline (${code ?? firstLine})`,
      level: 'info',
      retryInMs: OFFLINE_RETRY_MS,
    };
  }
  if (code === 'ERR_UPDATER_CHANNEL_FILE_NOT_FOUND' || statusOf(error) === 404) {
    return {
      kind: 'no-feed',
      message: `no update feed answered (${firstLine})`,
      level: 'warn',
      retryInMs: CHECK_INTERVAL_MS,
    };
  }
  return { kind: 'failed', message: `update failed: ${firstLine}`, level: 'warn', retryInMs: CHECK_INTERVAL_MS };
}

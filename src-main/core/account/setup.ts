// Builds settings, the key store and the account manager from the host's adapters, and
// forwards settings changes to the renderer. Called once by the composition root.
import { settingsFieldSchemas } from '../../contract/ipc/settings.ts';
import type { EventBus } from '../events.ts';
import type { ReachReport } from '../host/service-reach.ts';
import type { Logger } from '../log/logger.ts';
import { noCipher, type Cipher } from '../secrets/cipher.ts';
import { createKeyStore, type KeyStore } from '../secrets/key-store.ts';
import { createSettings, toSettingsInfo, type Settings } from '../settings/settings.ts';
import { createJsonFileStore } from '../settings/json-file-store.ts';
import type { KeyValueStore } from '../settings/store.ts';
import { createAccountManager, type AccountManager } from './account-manager.ts';
import { appAccountBindings } from './bindings.ts';
import type { AccountLogger, DemoService } from './types.ts';

export interface AccountSetupDeps {
  dataDir: string;
  events: EventBus;
  /** The app's Logger, or just somewhere for warnings until the host passes one. */
  logger: Logger | AccountLogger;
  /** The shell's safeStorage adapter; hosts without one keep keys for the session only. */
  cipher?: Cipher;
  /** Where settings and the key record persist; default the file `settings.json` in dataDir. */
  store?: KeyValueStore;
  demo?: DemoService;
  /** ATELIER_API_KEY read by the host (CLI, tests): used for this process, never stored. */
  apiKeyOverride?: string | null;
  /**
   * Pair a saved key from before the pairing with the address in the settings. Off for the CLI,
   * whose address may be a one-run --base-url override rather than the one the key was saved with.
   */
  pairLegacyKey?: boolean;
  /** Hears every request's outcome (core/host/service-reach.ts). */
  onReach?: ReachReport;
}

export interface AccountServices {
  settings: Settings;
  keyStore: KeyStore;
  accounts: AccountManager;
}

const rendererFields = new Set<string>(Object.keys(settingsFieldSchemas));

const isFullLogger = (logger: Logger | AccountLogger): logger is Logger => 'child' in logger;

/** The API client wants the full Logger; a warnings-only sink is widened to one. */
function widenLogger(base: AccountLogger): Logger {
  const logger: Logger = {
    debug: () => {},
    info: (message) => base.info(message),
    warn: (message, detail) => base.warn(message, detail),
    error: (message, detail) => base.warn(message, detail),
    child: () => logger,
    close: () => {},
  };
  return logger;
}

export async function setUpAccounts(deps: AccountSetupDeps): Promise<AccountServices> {
  const logger = isFullLogger(deps.logger) ? deps.logger : widenLogger(deps.logger);
  const store = deps.store ?? createJsonFileStore(deps.dataDir);
  const settings = createSettings({
    store,
    dataDir: deps.dataDir,
    onInvalidStored: (field) => logger.warn(`Ignoring the saved value of setting "${field}": it is not valid.`),
    onListenerError: (error) => logger.warn('A settings listener failed', error),
  });
  const keyStore = createKeyStore({
    cipher: deps.cipher ?? noCipher,
    store,
    allowWeakStorage: () => settings.get().allowWeakKeyStorage,
    override: deps.apiKeyOverride ?? null,
    ...(deps.pairLegacyKey === false ? {} : { currentBaseUrl: () => settings.get().baseUrl }),
    onWarning: (message) => logger.warn(message),
  });
  settings.onChange((values, changed) => {
    if (changed.some((key) => rendererFields.has(key))) deps.events.emit('settings:changed', toSettingsInfo(values));
  });
  const accounts = createAccountManager({
    settings,
    keyStore,
    ...(deps.demo ? { demo: deps.demo } : {}),
    ...appAccountBindings(deps.dataDir, logger.child('account'), deps.onReach),
    events: deps.events,
    logger,
  });
  await accounts.start();
  return { settings, keyStore, accounts };
}

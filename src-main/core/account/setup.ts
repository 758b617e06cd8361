// Builds settings, the key store and the account manager from the host's adapters, and
// forwards settings changes to the renderer. Called once by the composition root.
import { settingsFieldSchemas } from '../../contract/ipc/settings.ts';
import type { EventBus } from '../events.ts';
import { noCipher, type Cipher } from '../secrets/cipher.ts';
import { createKeyStore, type KeyStore } from '../secrets/key-store.ts';
import { createSettings, toSettingsInfo, type Settings } from '../settings/settings.ts';
import { createConfStore, type KeyValueStore } from '../settings/store.ts';
import { createAccountManager, type AccountManager } from './account-manager.ts';
import { appAccountBindings, type AccountClient, type AccountDatabase } from './bindings.ts';
import type { AccountLogger, DemoService } from './types.ts';

export type AppAccountManager = AccountManager<AccountDatabase, AccountClient>;

export interface AccountSetupDeps {
  dataDir: string;
  events: EventBus;
  logger: AccountLogger;
  /** The shell's safeStorage adapter; hosts without one keep keys for the session only. */
  cipher?: Cipher;
  /** The shell's electron-store adapter; default a `conf` file `settings.json` in dataDir. */
  store?: KeyValueStore;
  demo?: DemoService;
  /** ATELIER_API_KEY read by the host (CLI, tests): used for this process, never stored. */
  apiKeyOverride?: string | null;
}

export interface AccountServices {
  settings: Settings;
  keyStore: KeyStore;
  accounts: AppAccountManager;
}

const rendererFields = new Set<string>(Object.keys(settingsFieldSchemas));

export async function setUpAccounts(deps: AccountSetupDeps): Promise<AccountServices> {
  const { logger } = deps;
  const store = deps.store ?? createConfStore(deps.dataDir);
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
    onWarning: (message) => logger.warn(message),
  });
  settings.onChange((values, changed) => {
    if (changed.some((key) => rendererFields.has(key))) deps.events.emit('settings:changed', toSettingsInfo(values));
  });
  const accounts = createAccountManager({
    settings,
    keyStore,
    ...(deps.demo ? { demo: deps.demo } : {}),
    ...appAccountBindings(deps.dataDir),
    events: deps.events,
    logger,
  });
  await accounts.start();
  return { settings, keyStore, accounts };
}

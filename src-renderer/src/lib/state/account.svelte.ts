// Choosing the account: the API key (write-only: it goes to the core and is forgotten here) and demo mode.
import type { AccountInfo } from '@contract/ipc/app.ts';
import type { ErrorInfo, Result } from '@contract/errors.ts';
import { invoke } from '../ipc.ts';
import { appInfo } from './app-info.svelte.ts';

export type AccountAction = 'set-key' | 'remove-key' | 'use-demo' | 'leave-demo' | 'start-fresh';

/** Where the key is kept, in words for the user. */
export const KEY_STORAGE_TEXT: Record<AccountInfo['keyStorage'], string> = {
  encrypted: 'Saved encrypted with the system keychain.',
  session:
    'Kept for this session only: this system offers no safe storage, so you will enter it again next time (or keep it, below).',
  plain: 'Saved without encryption, as you allowed. Anyone with access to your user folder can read it.',
  none: 'No key saved.',
};

class AccountState {
  busy = $state<AccountAction | null>(null);
  error = $state<ErrorInfo | null>(null);

  readonly info: AccountInfo | null = $derived(appInfo.info?.account ?? null);
  readonly isDemo = $derived(this.info?.mode === 'demo');

  async #run(action: AccountAction, call: () => Promise<Result<AccountInfo>>): Promise<boolean> {
    this.busy = action;
    this.error = null;
    try {
      const result = await call();
      if (!result.ok) {
        this.error = result.error;
        return false;
      }
      appInfo.setAccount(result.value);
      return true;
    } finally {
      this.busy = null;
    }
  }

  /**
   * Checks the key against the service (at `baseUrl` when given: the address changes only together
   * with the key) and saves both. The key is passed straight through and never kept in renderer state.
   */
  setKey(key: string, baseUrl?: string): Promise<boolean> {
    const address = baseUrl?.trim();
    return this.#run('set-key', () =>
      invoke('account:set-key', { key, verify: true, ...(address ? { baseUrl: address } : {}) }),
    );
  }

  removeKey(): Promise<boolean> {
    return this.#run('remove-key', () => invoke('account:remove-key'));
  }

  useDemo(): Promise<boolean> {
    return this.#run('use-demo', () => invoke('account:use-demo'));
  }

  leaveDemo(): Promise<boolean> {
    return this.#run('leave-demo', () => invoke('account:leave-demo'));
  }

  /** After the saved account's database could not be opened: set it aside (kept) and open a fresh one. */
  startFresh(): Promise<boolean> {
    return this.#run('start-fresh', () => invoke('account:start-fresh'));
  }

  /** Shows the data folder (where the account databases are) in the file manager. */
  async openDataFolder(): Promise<void> {
    const result = await invoke('shell:open-data-folder');
    if (!result.ok) this.error = result.error;
  }

  clearError(): void {
    this.error = null;
  }
}

export const account = new AccountState();

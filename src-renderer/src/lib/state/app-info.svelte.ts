// App-level facts from the core (version, host, account), loaded once and kept fresh by events.
import type { AccountInfo, AppInfo } from '@contract/ipc/app.ts';
import { accountScope } from '../account-scope.ts';
import { invoke, on } from '../ipc.ts';

class AppInfoState {
  info = $state<AppInfo | null>(null);
  error = $state<string | null>(null);

  async load(): Promise<void> {
    const result = await invoke('app:info');
    if (result.ok) {
      this.info = result.value;
      this.error = null;
      accountScope.enter(result.value.account.id);
    } else {
      this.error = result.error.message;
    }
  }

  setAccount(account: AccountInfo): void {
    if (!this.info) return;
    this.info = { ...this.info, account };
    // Every piece of state bound to the account is reset (and reloaded) here, before the views update.
    accountScope.enter(account.id);
  }

  listen(): () => void {
    return on('account:changed', (account) => this.setAccount(account));
  }
}

export const appInfo = new AppInfoState();

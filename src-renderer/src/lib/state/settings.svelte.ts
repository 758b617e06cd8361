// The user's settings as the core holds them: loaded once, kept fresh by 'settings:changed', changed one field at a time.
import type { SettingsField, SettingsInfo, SettingsUpdate } from '@contract/ipc/settings.ts';
import { invoke, on } from '../ipc.ts';

class SettingsState {
  values = $state<SettingsInfo | null>(null);
  loadError = $state<string | null>(null);
  /** The core's refusal of the last change of each field, shown next to it. */
  fieldErrors = $state<Partial<Record<SettingsField, string>>>({});
  saving = $state<Partial<Record<SettingsField, boolean>>>({});

  async load(): Promise<void> {
    const result = await invoke('settings:get');
    if (result.ok) {
      this.values = result.value;
      this.loadError = null;
    } else {
      this.loadError = result.error.message;
    }
  }

  listen(): () => void {
    return on('settings:changed', (values) => {
      this.values = values;
    });
  }

  /** Sends one change; true when the core accepted it. */
  async update<K extends SettingsField>(field: K, value: SettingsUpdate[K]): Promise<boolean> {
    this.saving = { ...this.saving, [field]: true };
    const result = await invoke('settings:update', { [field]: value } as SettingsUpdate);
    this.saving = { ...this.saving, [field]: false };
    const { [field]: _previous, ...others } = this.fieldErrors;
    if (result.ok) {
      this.values = result.value;
      this.fieldErrors = others;
      return true;
    }
    this.fieldErrors = { ...others, [field]: result.error.message };
    return false;
  }

  /**
   * Points the app at another library folder (nothing moves): the core accepts only an empty folder
   * or an Atelier library, and in the app only one the folder dialog returned. True when accepted.
   */
  async useLibraryFolder(path: string): Promise<boolean> {
    this.saving = { ...this.saving, libraryDir: true };
    const result = await invoke('library:use-folder', { to: path });
    this.saving = { ...this.saving, libraryDir: false };
    const { libraryDir: _previous, ...others } = this.fieldErrors;
    if (result.ok) {
      if (this.values) this.values = { ...this.values, libraryDir: result.value.libraryDir };
      this.fieldErrors = others;
      return true;
    }
    this.fieldErrors = { ...others, libraryDir: result.error.message };
    return false;
  }

  clearError(field: SettingsField): void {
    const { [field]: _dropped, ...others } = this.fieldErrors;
    this.fieldErrors = others;
  }
}

export const settings = new SettingsState();

// Light or dark: follows the OS unless Settings pins one; applied as data-theme on the root element.
import type { Theme } from '@contract/ipc/settings.ts';
import { settings } from './settings.svelte.ts';

class ThemeState {
  readonly preference: Theme = $derived(settings.values?.theme ?? 'system');

  /** Writes the preference to :root; call it inside an $effect so it reruns when the preference changes. */
  sync(): void {
    const root = document.documentElement;
    if (this.preference === 'system') delete root.dataset['theme'];
    else root.dataset['theme'] = this.preference;
  }
}

export const theme = new ThemeState();

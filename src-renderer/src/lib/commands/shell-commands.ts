// The native menu's commands ('shell:command', e.g. Settings… / Cmd+,), carried out from any view.
import { viewForShellCommand } from '../frame/shell-commands.ts';
import { on } from '../ipc.ts';
import { assetView } from '../state/asset-view.svelte.ts';
import { router } from '../state/router.svelte.ts';

/** App-wide, subscribed once at start-up; returns the unsubscribe. */
export function listenForShellCommands(): () => void {
  return on('shell:command', ({ command }) => {
    const view = viewForShellCommand(command);
    if (!view) return;
    // The asset view is a modal over the Library or Jobs: close it so the view asked for is what shows.
    assetView.close();
    router.go(view);
  });
}

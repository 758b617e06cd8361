// "Demo" wherever the desktop shows Atelier outside its window content: the window title, the
// tray tooltip and OS notifications, so demo results are never mistaken for the real account's.
import type { AccountInfo } from '../contract/ipc/app.ts';

export const isDemo = (account: Pick<AccountInfo, 'mode'> | null | undefined): boolean => account?.mode === 'demo';

/** `Atelier` → `Atelier — Demo` while the demo account is open. */
export function withDemoBadge(title: string, demo: boolean): string {
  return demo ? `${title} — Demo` : title;
}

/** `--demo` on the command line opens the demo account at start (as browser mode's flag does). */
export const wantsDemoAtStart = (argv: readonly string[]): boolean => argv.includes('--demo');

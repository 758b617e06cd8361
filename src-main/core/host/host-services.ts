// The host adapters the core's background engine consumes, in one bundle: the shell passes
// Electron-backed ones, browser mode and the CLI the quiet defaults below.
import { noDesktop, type DesktopIntegration } from './desktop.ts';
import { silentNotifier, type Notifier } from './notifier.ts';
import { steadyPowerSignals, type PowerSignals } from './power-signals.ts';
import { hiddenProgress, type ProgressReporter } from './progress.ts';

export interface HostServices {
  notifier: Notifier;
  power: PowerSignals;
  progress: ProgressReporter;
  desktop: DesktopIntegration;
}

export function withHostDefaults(given: Partial<HostServices> = {}): HostServices {
  return {
    notifier: given.notifier ?? silentNotifier,
    power: given.power ?? steadyPowerSignals,
    progress: given.progress ?? hiddenProgress,
    desktop: given.desktop ?? noDesktop,
  };
}

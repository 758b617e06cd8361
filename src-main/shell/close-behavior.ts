// What closing the main window does: hide to the tray (so queued jobs keep running), with a
// one-time explanation the first time, or really close. Quitting always closes.

export type CloseAction = 'close' | 'hide' | 'hide-and-explain';

export interface CloseFacts {
  /** Quit was chosen (menu, tray, Cmd+Q, OS shutdown): never hold the window back. */
  quitting: boolean;
  closeToTray: boolean;
  closeToTrayExplained: boolean;
  /** No tray (some Linux desktops): hiding would leave no way back, so close. */
  trayAvailable: boolean;
}

export function closeAction(facts: CloseFacts): CloseAction {
  if (facts.quitting || !facts.closeToTray || !facts.trayAvailable) return 'close';
  return facts.closeToTrayExplained ? 'hide' : 'hide-and-explain';
}

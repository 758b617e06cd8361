// Decides whether an IPC message comes from Atelier itself: the top frame of our own window,
// showing our own app:// page. Sub-frames, other windows and foreign pages are refused.

/** The part of Electron's WebFrameMain the check reads. */
export interface FrameLike {
  url: string;
  parent: unknown;
}

export interface SenderFacts {
  /** event.senderFrame: null when the frame navigated away or was destroyed meanwhile. */
  frame: FrameLike | null | undefined;
  /** Whether event.sender belongs to one of the windows this shell created. */
  fromOurWindow: boolean;
}

/** null when the sender is trusted, otherwise the reason (for the log, never for the renderer). */
export function senderRefusal(facts: SenderFacts, isAppUrl: (url: string) => boolean): string | null {
  if (!facts.fromOurWindow) return 'not one of our windows';
  const frame = facts.frame;
  if (!frame) return 'the sending frame is gone';
  if (frame.parent !== null && frame.parent !== undefined) return 'a sub-frame';
  if (!isAppUrl(frame.url)) return 'a page that is not the app';
  return null;
}

// Which web permissions the app page gets: none, except full screen (the video player's button)
// and sanitized clipboard writes ("Copy prompt"), and only for our own app page.

const ALLOWED_FOR_APP = new Set(['fullscreen', 'clipboard-sanitized-write']);

export function permissionAllowed(
  permission: string,
  requestingUrl: string,
  isAppUrl: (url: string) => boolean,
): boolean {
  return ALLOWED_FOR_APP.has(permission) && isAppUrl(requestingUrl);
}

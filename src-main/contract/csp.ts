// The Content-Security-Policy of the renderer and the other security headers every host sends
// with it (the Electron app protocol, the Electron session, browser mode).
// Media may come from the local library (atelier-media: / same origin) and from the service's
// https media hosts; connections only to our own origin (browser-mode bridge) and https.
// `sandbox` without allow-popups makes window.open and target=_blank do nothing in every host;
// links leave through shell:open-external instead.
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: atelier-media: https: http://127.0.0.1:*",
  "media-src 'self' blob: atelier-media: https: http://127.0.0.1:*",
  "connect-src 'self' ws://127.0.0.1:* ws://localhost:* atelier-media: https: http://127.0.0.1:*",
  "font-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "frame-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  'sandbox allow-scripts allow-same-origin allow-forms allow-downloads allow-modals',
].join('; ');

/** Powerful features the page never uses, switched off for it and anything it might embed. */
export const PERMISSIONS_POLICY = [
  'camera=()',
  'microphone=()',
  'geolocation=()',
  'usb=()',
  'serial=()',
  'hid=()',
  'payment=()',
  'display-capture=()',
  'midi=()',
].join(', ');

export const RENDERER_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Permissions-Policy': PERMISSIONS_POLICY,
  'Cross-Origin-Opener-Policy': 'same-origin',
};

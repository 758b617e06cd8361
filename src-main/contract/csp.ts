// The Content-Security-Policy of the renderer, shared by the Electron protocol and browser mode.
// Media may come from the local library (atelier-media: / same origin) and from the service's
// https media hosts; connections only to our own origin (browser-mode bridge) and https.
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: atelier-media: https: http://127.0.0.1:*",
  "media-src 'self' blob: atelier-media: https: http://127.0.0.1:*",
  "connect-src 'self' ws://127.0.0.1:* ws://localhost:* https: http://127.0.0.1:*",
  "font-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

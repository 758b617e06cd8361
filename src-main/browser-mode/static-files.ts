// Serves the built renderer (out/renderer) with the same CSP as the Electron window.
import { createReadStream, statSync } from 'node:fs';
import { extname, join, normalize, sep } from 'node:path';
import type { ServerResponse } from 'node:http';
import { CONTENT_SECURITY_POLICY } from '../contract/csp.ts';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
  '.ico': 'image/x-icon',
};

/** Handles the request (true) or leaves it to the caller (false); a malformed % escape is a 400. */
export function serveStatic(root: string, urlPath: string, res: ServerResponse): boolean {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath === '/' ? '/index.html' : urlPath);
  } catch {
    res.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
    res.end('Bad request: the address has a malformed % escape.');
    return true;
  }
  const relative = normalize(decoded).replace(/^([/\\])+/, '');
  const file = join(root, relative);
  if (file !== root && !file.startsWith(root + sep)) return false;
  let size: number;
  try {
    const stat = statSync(file);
    if (!stat.isFile()) return false;
    size = stat.size;
  } catch {
    return false;
  }
  res.writeHead(200, {
    'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
    'Content-Length': size,
    'Content-Security-Policy': CONTENT_SECURITY_POLICY,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-store',
  });
  createReadStream(file).pipe(res);
  return true;
}

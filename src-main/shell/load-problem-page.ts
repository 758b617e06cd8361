// The page the window shows when the app's own page would not load twice in a row: what
// happened, a Reload link (no script: the CSP allows none inline) and where the log is.
// Served by the app protocol itself, so it needs no file that might be the one missing.
import { APP_ORIGIN } from './app-url.ts';

export const LOAD_PROBLEM_PATH = '/load-problem';
export const LOAD_PROBLEM_URL = `${APP_ORIGIN}${LOAD_PROBLEM_PATH}`;

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

export function loadProblemPage(options: { appName: string; logFile: string }): string {
  const name = escapeHtml(options.appName);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${name}</title>
<style>
  :root { color-scheme: light dark; font-family: system-ui, sans-serif; }
  body { max-width: 36rem; margin: 15vh auto; padding: 0 1.5rem; line-height: 1.5; }
  h1 { font-size: 1.25rem; }
  a.button { display: inline-block; padding: 0.5rem 1rem; border-radius: 6px; background: #3b5bdb; color: #fff; text-decoration: none; }
  code { word-break: break-all; }
</style>
</head>
<body>
<h1>${name} could not show its window</h1>
<p>The page stopped loading twice in a row. Your library, jobs and settings are not affected:
queued jobs keep running in the background.</p>
<p><a class="button" href="${APP_ORIGIN}/index.html" data-testid="load-problem-reload">Reload</a></p>
<p>If this keeps happening, the log says why: <code data-testid="load-problem-log">${escapeHtml(options.logFile)}</code>
(Help → Open Logs Folder).</p>
</body>
</html>
`;
}

// Scenario 6's baseline: a minimal hand-written virtual grid (plain DOM, no framework, all 100,000
// items known up front, no IPC) showing the same thumbnails at the same tile size, served by a tiny
// local server. It is the floor a browser on this machine gives: what Atelier's grid is compared to.
import { createReadStream, existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join, normalize } from 'node:path';

/** The page: same test ids as Atelier's grid, so one probe measures both. */
export function baselineHtml(items: number, thumbs: number): string {
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>baseline grid</title>
<style>
  html, body { margin: 0; height: 100%; font: 13px system-ui, sans-serif; }
  #grid { position: absolute; inset: 0; overflow-y: auto; }
  #content { position: relative; width: 100%; }
  .tile { position: absolute; border-radius: 6px; overflow: hidden; background: #ddd; }
  .tile img { width: 100%; height: 100%; object-fit: cover; display: block; }
  #end { position: absolute; left: 0; right: 0; text-align: center; }
</style></head>
<body>
<div id="grid" data-testid="asset-grid" data-loaded="${items}" data-complete="true"><div id="content"></div></div>
<script>
  const ITEMS = ${items}, THUMBS = ${thumbs}, MIN = 148, GAP = 6, PAD = 16;
  const grid = document.getElementById('grid'), content = document.getElementById('content');
  const shown = new Map();
  let columns = 1, tile = MIN, row = MIN + GAP, frame = 0;
  function layout() {
    const width = grid.clientWidth - 2 * PAD;
    columns = Math.max(1, Math.floor((width + GAP) / (MIN + GAP)));
    tile = Math.floor((width - GAP * (columns - 1)) / columns);
    row = tile + GAP;
    const rows = Math.ceil(ITEMS / columns);
    content.style.height = (PAD * 2 + rows * row + 48) + 'px';
    let end = document.getElementById('end');
    if (!end) { end = document.createElement('p'); end.id = 'end'; end.dataset.testid = 'library-end'; end.textContent = ITEMS + ' items · end of the list'; content.appendChild(end); }
    end.style.top = (PAD * 2 + rows * row) + 'px';
  }
  function render() {
    frame = 0;
    const first = Math.max(0, Math.floor((grid.scrollTop - PAD) / row) * columns);
    const last = Math.min(ITEMS - 1, Math.ceil((grid.scrollTop + grid.clientHeight) / row) * columns + columns - 1);
    for (const [index, el] of shown) if (index < first || index > last) { el.remove(); shown.delete(index); }
    for (let index = first; index <= last; index += 1) {
      if (shown.has(index)) continue;
      const el = document.createElement('div');
      el.className = 'tile'; el.dataset.testid = 'asset-tile';
      el.style.cssText = 'top:' + (PAD + Math.floor(index / columns) * row) + 'px;left:' + (PAD + (index % columns) * (tile + GAP)) + 'px;width:' + tile + 'px;height:' + tile + 'px';
      const img = document.createElement('img');
      img.loading = 'lazy'; img.decoding = 'async'; img.alt = '';
      img.src = '/thumbs/bench-' + (index % THUMBS) + '.webp';
      el.appendChild(img);
      content.appendChild(el);
      shown.set(index, el);
    }
  }
  grid.addEventListener('scroll', () => { if (!frame) frame = requestAnimationFrame(render); });
  layout(); render();
</script></body></html>`;
}

/** Serves the page at / and the thumbnails at /thumbs/<name>.webp. */
export async function serveBaseline(html: string, thumbsDir: string): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    if (path === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(html);
      return;
    }
    const name = normalize(path.replace(/^\/thumbs\//, ''));
    const file = join(thumbsDir, name);
    if (!path.startsWith('/thumbs/') || name.includes('..') || !existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'image/webp', 'cache-control': 'no-store' });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

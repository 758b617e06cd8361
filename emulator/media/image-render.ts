// Renders generated images with sharp: a gradient and shapes chosen from the prompt+seed hash, the prompt text on top.
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';

export interface RenderSpec {
  width: number;
  height: number;
  format: 'png' | 'jpeg';
  prompt: string;
  seed: number;
  /** Small line under the prompt, e.g. `imagea · 1024×1024 · seed 7`. */
  caption: string;
}

const MEMORY_BUDGET_BYTES = 96 * 1024 * 1024;
const MAX_PARALLEL_RENDERS = 2;

export function renderKey(spec: RenderSpec): string {
  return createHash('sha256')
    .update(JSON.stringify([spec.width, spec.height, spec.format, spec.prompt, spec.seed, spec.caption]))
    .digest('hex')
    .slice(0, 32);
}

function hslToHex(h: number, s: number, l: number): string {
  const a = s * Math.min(l, 1 - l);
  const f = (n: number): string => {
    const k = (n + h / 30) % 12;
    const c = l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(c * 255)
      .toString(16)
      .padStart(2, '0');
  };
  return `#${f(0)}${f(8)}${f(4)}`;
}

const escapeXml = (text: string): string =>
  text.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] ?? c);

function wrap(text: string, perLine: number, maxLines: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const piece = word.length > perLine ? `${word.slice(0, perLine - 1)}…` : word;
    if (line && line.length + 1 + piece.length > perLine) {
      lines.push(line);
      line = piece;
    } else line = line ? `${line} ${piece}` : piece;
  }
  if (line) lines.push(line);
  if (lines.length > maxLines) {
    lines.length = maxLines;
    lines[maxLines - 1] = `${lines[maxLines - 1]?.slice(0, perLine - 1) ?? ''}…`;
  }
  return lines;
}

export function sceneSvg(spec: RenderSpec): string {
  const { width: w, height: h } = spec;
  const digest = createHash('sha256').update(`${spec.prompt}\u0000${spec.seed}`).digest();
  const byte = (i: number): number => digest[i % digest.length] ?? 0;
  const hue = (byte(0) / 255) * 360;
  const from = hslToHex(hue, 0.7, 0.55);
  const to = hslToHex((hue + 90 + (byte(1) / 255) * 120) % 360, 0.65, 0.3);
  const shapes: string[] = [];
  for (let i = 0; i < 6; i += 1) {
    const cx = (byte(2 + i * 4) / 255) * w;
    const cy = (byte(3 + i * 4) / 255) * h;
    const r = (0.08 + (byte(4 + i * 4) / 255) * 0.25) * Math.min(w, h);
    const color = hslToHex((hue + byte(5 + i * 4)) % 360, 0.8, 0.65);
    shapes.push(
      `<circle cx="${cx.toFixed(1)}" cy="${cy.toFixed(1)}" r="${r.toFixed(1)}" fill="${color}" fill-opacity="0.35"/>`,
    );
  }
  const fontSize = Math.max(10, Math.round(Math.min(w, h) / 20));
  const perLine = Math.max(8, Math.floor((w * 0.88) / (fontSize * 0.58)));
  const lines = wrap(spec.prompt || '(no prompt)', perLine, 5);
  const captionSize = Math.max(8, Math.round(fontSize * 0.5));
  const boxHeight = lines.length * fontSize * 1.25 + captionSize * 2.2 + fontSize * 0.6;
  const top = h - boxHeight - h * 0.04;
  const text = lines
    .map(
      (line, i) =>
        `<text x="${(w * 0.06).toFixed(1)}" y="${(top + fontSize * (1.1 + i * 1.25)).toFixed(1)}">${escapeXml(line)}</text>`,
    )
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>
<rect width="${w}" height="${h}" fill="url(#g)"/>${shapes.join('')}
<rect x="${(w * 0.03).toFixed(1)}" y="${top.toFixed(1)}" width="${(w * 0.94).toFixed(1)}" height="${boxHeight.toFixed(1)}" rx="${(fontSize * 0.4).toFixed(1)}" fill="#000" fill-opacity="0.45"/>
<g font-family="DejaVu Sans, Liberation Sans, sans-serif" font-size="${fontSize}" fill="#fff">${text}</g>
<text x="${(w * 0.06).toFixed(1)}" y="${(top + boxHeight - captionSize * 0.9).toFixed(1)}" font-family="DejaVu Sans Mono, monospace" font-size="${captionSize}" fill="#fff" fill-opacity="0.8">${escapeXml(spec.caption)}</text>
</svg>`;
}

/** Renders once per distinct spec: memory LRU, optional disk cache, and in-flight de-duplication. */
export class ImageRenderer {
  private readonly memory = new Map<string, Buffer>();
  private memoryBytes = 0;
  private readonly inFlight = new Map<string, Promise<Buffer>>();
  private readonly cacheDir: string | undefined;
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(cacheDir?: string) {
    this.cacheDir = cacheDir;
    if (cacheDir) mkdirSync(cacheDir, { recursive: true });
  }

  render(spec: RenderSpec): Promise<Buffer> {
    const key = renderKey(spec);
    const cached = this.memory.get(key);
    if (cached) {
      this.memory.delete(key);
      this.memory.set(key, cached); // refresh LRU position
      return Promise.resolve(cached);
    }
    let pending = this.inFlight.get(key);
    if (!pending) {
      pending = this.produce(key, spec).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, pending);
    }
    return pending;
  }

  private async produce(key: string, spec: RenderSpec): Promise<Buffer> {
    const file = this.cacheDir ? join(this.cacheDir, `${key}.${spec.format === 'png' ? 'png' : 'jpg'}`) : undefined;
    if (file) {
      const onDisk = await readFile(file).catch(() => undefined);
      if (onDisk) return this.remember(key, onDisk);
    }
    const bytes = await this.limited(() => {
      const image = sharp(Buffer.from(sceneSvg(spec)), { limitInputPixels: false });
      return (spec.format === 'png' ? image.png({ compressionLevel: 6 }) : image.jpeg({ quality: 85 })).toBuffer();
    });
    if (file) {
      const temp = `${file}.tmp-${process.pid}`;
      await writeFile(temp, bytes)
        .then(() => rename(temp, file))
        .catch(() => undefined);
    }
    return this.remember(key, bytes);
  }

  /** Large renders are CPU-heavy; cap parallelism so a grid of 4K images does not starve the event loop's peers. */
  private async limited<T>(work: () => Promise<T>): Promise<T> {
    while (this.running >= MAX_PARALLEL_RENDERS) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running += 1;
    try {
      return await work();
    } finally {
      this.running -= 1;
      this.waiting.shift()?.();
    }
  }

  private remember(key: string, bytes: Buffer): Buffer {
    this.memory.set(key, bytes);
    this.memoryBytes += bytes.length;
    for (const [oldKey, old] of this.memory) {
      if (this.memoryBytes <= MEMORY_BUDGET_BYTES) break;
      this.memory.delete(oldKey);
      this.memoryBytes -= old.length;
    }
    return bytes;
  }
}

// Copies the demo library's pictures the README shows into docs/screens/, as palette PNGs under 300 KB.
// The last step of `npm run docs:screens`, after e2e/screens/*.screens.ts took them (outside the test run).
import { mkdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import sharp from 'sharp';

const root = resolve(import.meta.dirname, '..');
const from = join(root, 'e2e-artifacts', 'screenshots');
const to = join(root, 'docs', 'screens');
const MAX_BYTES = 300 * 1024;

/** e2e screenshot → docs name. */
const SCREENS: Record<string, string> = {
  'demo-library-collection-light': 'library-collections',
  'demo-library-menu-dark': 'library-context-menu',
  'demo-library-uploads-light': 'library-uploads',
  'names-jobs-1920x1080-light': 'jobs-1920x1080-light',
  'names-jobs-1920x1080-dark': 'jobs-1920x1080-dark',
  'names-viewer-details-1920x1080-light': 'viewer-details-1920x1080-light',
  'names-viewer-details-1920x1080-dark': 'viewer-details-1920x1080-dark',
  'family-tree-1920x1080-light': 'family-tree-1920x1080-light',
  'family-tree-1920x1080-dark': 'family-tree-1920x1080-dark',
  'family-tree-1024x640-light': 'family-tree-1024x640-light',
  'family-tree-1024x640-dark': 'family-tree-1024x640-dark',
  'spending-1920x1080-light': 'spending-1920x1080-light',
  'spending-1920x1080-dark': 'spending-1920x1080-dark',
  'spending-1024x640-light': 'spending-1024x640-light',
  'spending-1024x640-dark': 'spending-1024x640-dark',
  'library-dates-1920x1080-light': 'library-dates-1920x1080-light',
  'library-dates-1920x1080-dark': 'library-dates-1920x1080-dark',
  'library-dates-1024x640-light': 'library-dates-1024x640-light',
  'library-dates-1024x640-dark': 'library-dates-1024x640-dark',
};

mkdirSync(to, { recursive: true });
for (const [source, name] of Object.entries(SCREENS)) {
  const target = join(to, `${name}.png`);
  for (const colours of [128, 64, 32]) {
    await sharp(join(from, `${source}.png`))
      .png({ palette: true, colours, effort: 10, compressionLevel: 9 })
      .toFile(target);
    if (statSync(target).size <= MAX_BYTES) break;
  }
  const size = statSync(target).size;
  if (size > MAX_BYTES) throw new Error(`${name}.png is ${size} bytes, over ${MAX_BYTES}`);
  console.log(`${name}.png ${Math.round(size / 1024)} KB`);
}

// Drops fixture photos on an element as a browser would: dragenter, dragover and drop carrying a
// DataTransfer of real File objects (Playwright cannot drag files from the OS).
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { repoRoot } from '../fixtures/browser-mode.ts';

export const PHOTOS_DIR = join(repoRoot, 'e2e', 'fixtures', 'photos');

/** A file to drop: from the fixtures folder, optionally under another name. */
export interface DropFile {
  path: string;
  name?: string;
}

const MIME: Record<string, string> = { jpg: 'image/jpeg', png: 'image/png' };

export async function dropFiles(page: Page, target: Locator, files: DropFile[]): Promise<void> {
  const payload = files.map((f) => {
    const name = f.name ?? basename(f.path);
    return {
      name,
      type: MIME[name.split('.').pop() ?? ''] ?? '',
      base64: readFileSync(join(PHOTOS_DIR, f.path)).toString('base64'),
    };
  });
  const dataTransfer = await page.evaluateHandle((items) => {
    const transfer = new DataTransfer();
    for (const item of items) {
      const bytes = Uint8Array.from(atob(item.base64), (c) => c.charCodeAt(0));
      transfer.items.add(new File([bytes], item.name, { type: item.type }));
    }
    return transfer;
  }, payload);
  for (const type of ['dragenter', 'dragover', 'drop']) await target.dispatchEvent(type, { dataTransfer });
  await dataTransfer.dispose();
}

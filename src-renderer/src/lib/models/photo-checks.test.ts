// The renderer's checks of training photos before any upload: each refused file has its reason.
import { describe, expect, it } from 'vitest';
import { judgePhotos, MAX_PHOTO_BYTES, photoCountSummary, type PhotoFacts } from './photo-checks.ts';

const photo = (name: string, over: Partial<PhotoFacts> = {}): PhotoFacts => ({
  name,
  bytes: 20_000,
  format: 'jpeg',
  sha256: `hash-${name}`,
  width: 768,
  height: 1024,
  ...over,
});

describe('judgePhotos', () => {
  it('accepts distinct images and refuses a non-image, an oversized file and a duplicate with reasons', () => {
    const verdicts = judgePhotos(
      [
        photo('a.jpg'),
        photo('notes.jpg', { format: null, sha256: null }),
        photo('huge.png', { format: 'png', bytes: MAX_PHOTO_BYTES + 1, sha256: null }),
        photo('a-copy.jpg', { sha256: 'hash-a.jpg' }),
        photo('b.heic', { format: 'heic', width: null, height: null }),
      ],
      { countBefore: 0, knownHashes: new Set() },
    );
    expect(verdicts[0]).toEqual({ ok: true, warning: null });
    expect(verdicts[1]).toMatchObject({ ok: false, reason: expect.stringContaining('not a JPEG, PNG, WebP or HEIC') });
    expect(verdicts[2]).toMatchObject({ ok: false, reason: expect.stringContaining('at most 20 MB') });
    expect(verdicts[3]).toMatchObject({ ok: false, reason: expect.stringContaining('same image') });
    // HEIC the browser cannot decode: accepted, its size unknown, no warning.
    expect(verdicts[4]).toEqual({ ok: true, warning: null });
  });

  it('refuses what is already on its way, warns about low resolution and stops at 20', () => {
    const verdicts = judgePhotos(
      [photo('sent.jpg'), photo('small.png', { width: 400, height: 900 }), photo('c.jpg'), photo('d.jpg')],
      { countBefore: 18, knownHashes: new Set(['hash-sent.jpg']) },
    );
    expect(verdicts[0]).toMatchObject({ ok: false, reason: expect.stringContaining('same image') });
    expect(verdicts[1]).toEqual({ ok: true, warning: expect.stringContaining('Low resolution (400×900)') });
    expect(verdicts[2]).toEqual({ ok: true, warning: null });
    expect(verdicts[3]).toMatchObject({ ok: false, reason: expect.stringContaining('more than 20 training photos') });
  });

  it('refuses an empty file', () => {
    expect(judgePhotos([photo('empty.jpg', { bytes: 0 })], { countBefore: 0, knownHashes: new Set() })[0]).toEqual({
      ok: false,
      reason: 'the file is empty.',
    });
  });
});

describe('photoCountSummary', () => {
  it('says how far the model is from 12–20', () => {
    expect(photoCountSummary(9)).toEqual({ text: '9 of 12–20: add 3 more to train', enough: false, over: false });
    expect(photoCountSummary(12)).toMatchObject({ enough: true });
    expect(photoCountSummary(20)).toMatchObject({ enough: true });
    expect(photoCountSummary(21)).toMatchObject({ enough: false, over: true });
  });
});

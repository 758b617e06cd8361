// Request paths: the spec's template filled with encoded segments, bad ids refused naming the placeholder.
import { describe, expect, it } from 'vitest';
import { infoOf } from './test-support/local-checks.ts';
import { path, pathSegment } from './path.ts';

describe('pathSegment', () => {
  it('encodes ids so they stay one segment', () => {
    expect(pathSegment('modelID', 'mdl_1')).toBe('mdl_1');
    expect(pathSegment('modelID', 'a/b?c#d')).toBe('a%2Fb%3Fc%23d');
  });

  it('refuses what is not an id, naming the field', () => {
    for (const bad of ['', '  ', '.', '..', 'a\nb', 5, null, undefined, 'x'.repeat(600)]) {
      expect(infoOf(() => pathSegment('imageID', bad))).toMatchObject({ code: 'invalid_argument', field: 'imageID' });
    }
  });
});

describe('path', () => {
  it('fills the template with encoded segments and keeps the template for messages', () => {
    expect(path('/models/{modelID}/images', { modelID: 'a/b' })).toEqual({
      template: '/models/{modelID}/images',
      path: 'models/a%2Fb/images',
    });
    expect(path('/jobs')).toEqual({ template: '/jobs', path: 'jobs' });
  });

  it('refuses a bad segment naming its placeholder', () => {
    expect(infoOf(() => path('/videos/{videoID}/download', { videoID: '..' }))).toMatchObject({
      code: 'invalid_argument',
      field: 'videoID',
    });
  });

  it('is a programming error when a placeholder has no value', () => {
    expect(() => path('/images/{imageID}', {})).toThrow(/no value for \{imageID\}/);
  });
});

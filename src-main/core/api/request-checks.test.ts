// Local checks before sending: path segments, generation rules, list options, job ranges.
import { describe, expect, it } from 'vitest';
import { AppError } from '../../contract/errors.ts';
import {
  checkedGenerationBody,
  checkImageFilter,
  checkJobRange,
  checkPageSize,
  pathSegment,
} from './request-checks.ts';

function infoOf(run: () => unknown): AppError['info'] {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error.info;
    throw error;
  }
  throw new Error('expected an AppError');
}

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

describe('checkedGenerationBody', () => {
  it('returns the normalized body: only the chosen model option group is sent', () => {
    const body = checkedGenerationBody('image', {
      modelID: 'imageb',
      prompt: 'a fox',
      numImages: 2,
      options: { imageb: { sequentialMode: 'disabled' } },
    });
    expect(body).toMatchObject({ modelID: 'imageb', options: { imageb: { sequentialMode: 'auto' } } });
  });

  it('throws validation with every field problem', () => {
    const info = infoOf(() =>
      checkedGenerationBody('image', { modelID: 'imagea', prompt: 'x', numImages: 9, aspectRatio: '7:5' }),
    );
    expect(info.code).toBe('validation');
    expect(info.fields?.map((f) => f.field).sort()).toEqual(['aspectRatio', 'numImages']);
    expect(info.message).toMatch(/^The image generation request was not sent: /);
  });

  it('checks upscaling and video bodies too', () => {
    expect(infoOf(() => checkedGenerationBody('upscale', { imageID: '' }))).toMatchObject({
      code: 'validation',
      field: 'imageID',
    });
    expect(infoOf(() => checkedGenerationBody('video', { modelID: 'videoa-3.1' }))).toMatchObject({
      code: 'validation',
      field: 'prompt',
    });
  });
});

describe('list options', () => {
  it('accept the spec ranges and refuse the rest', () => {
    expect(checkPageSize(undefined)).toBeUndefined();
    expect(checkPageSize(100)).toBe(100);
    for (const bad of [0, 101, 2.5, '5']) expect(infoOf(() => checkPageSize(bad))).toMatchObject({ field: 'pageSize' });
    expect(checkImageFilter('auxiliaryType')).toBe('auxiliaryType');
    expect(infoOf(() => checkImageFilter('outputs'))).toMatchObject({ field: 'imageType' });
  });
});

describe('checkJobRange', () => {
  const now = Date.parse('2025-06-10T00:00:00Z');

  it('passes RFC 3339 strings through and turns Dates into them', () => {
    expect(checkJobRange({ start: '2025-06-09T00:00:00+02:00', end: new Date('2025-06-09T12:00:00Z') }, now)).toEqual({
      start: '2025-06-09T00:00:00+02:00',
      end: '2025-06-09T12:00:00.000Z',
    });
    expect(checkJobRange({}, now)).toEqual({});
  });

  it('refuses a range over 7 days (start) and an end before start (end)', () => {
    expect(
      infoOf(() => checkJobRange({ start: '2025-06-01T00:00:00Z', end: '2025-06-08T00:00:01Z' }, now)),
    ).toMatchObject({ code: 'invalid_argument', field: 'start' });
    expect(
      infoOf(() => checkJobRange({ start: '2025-06-02T00:00:00Z', end: '2025-06-01T00:00:00Z' }, now)),
    ).toMatchObject({ code: 'invalid_argument', field: 'end' });
    // Only start: the range runs until now.
    expect(infoOf(() => checkJobRange({ start: '2025-06-02T23:59:59Z' }, now))).toMatchObject({ field: 'start' });
    expect(checkJobRange({ start: '2025-06-03T00:00:00Z' }, now)).toEqual({ start: '2025-06-03T00:00:00Z' });
  });

  it('refuses times that are not RFC 3339', () => {
    for (const bad of ['yesterday', '2025-06-09', '2025-06-09T00:00:00', new Date(NaN)]) {
      expect(infoOf(() => checkJobRange({ end: bad }, now))).toMatchObject({ field: 'end' });
    }
  });
});

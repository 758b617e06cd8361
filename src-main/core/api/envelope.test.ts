// Envelope parsing, page fields, result schemas and the error each failed answer becomes.
import { describe, expect, it } from 'vitest';
import { checkResult, parseEnvelope, readPageFields } from './envelope.ts';
import { codeForStatus, errorFromAnswer, malformedError } from './errors.ts';
import { ImageSchema, JobSchema, JobsPageSchema, ModelSchema, TriggerSchema } from './schemas.ts';

describe('parseEnvelope', () => {
  it('unwraps OK with any result, null included', () => {
    expect(parseEnvelope('{"status":"OK","result":[1]}')).toMatchObject({ kind: 'ok', result: [1] });
    expect(parseEnvelope('{"status":"OK","result":null}')).toMatchObject({ kind: 'ok', result: null });
    expect(parseEnvelope('{"status":" ok ","result":1,"extra":true}')).toMatchObject({ kind: 'ok', result: 1 });
  });

  it('reads NOK with err and message, tolerating missing or odd fields', () => {
    expect(parseEnvelope('{"status":"NOK","err":"bad","message":"why","result":null}')).toEqual({
      kind: 'nok',
      err: 'bad',
      message: 'why',
    });
    expect(parseEnvelope('{"status":"NOK","err":5}')).toEqual({ kind: 'nok' });
  });

  it('calls everything else invalid, with a reason', () => {
    const cases = [
      '',
      '   ',
      'not json',
      '<html>502</html>',
      '[]',
      '"OK"',
      '{"result":1}',
      '{"status":"OK"}',
      '{"status":"MAYBE","result":1}',
      '{"status":1}',
    ];
    for (const text of cases) {
      const parsed = parseEnvelope(text);
      expect(parsed.kind, text).toBe('invalid');
      expect((parsed as { reason: string }).reason.length).toBeGreaterThan(5);
    }
  });
});

describe('readPageFields', () => {
  it('needs hasMore; tolerates a null cursor and missing counters', () => {
    expect(readPageFields({ hasMore: true, nextCursor: 'c2', page: 1, pageSize: 5 })).toEqual({
      hasMore: true,
      nextCursor: 'c2',
      page: 1,
      pageSize: 5,
    });
    expect(readPageFields({ hasMore: false, nextCursor: null })).toEqual({
      hasMore: false,
      nextCursor: '',
      page: 0,
      pageSize: 0,
    });
    expect(readPageFields({ nextCursor: 'c2' })).toBeNull();
    expect(readPageFields({ hasMore: 'yes' })).toBeNull();
  });
});

describe('result schemas', () => {
  it('keep unknown status strings and drop unknown fields', () => {
    const model = {
      id: 'm1',
      modelType: 'person',
      status: 'Retraining-Soon',
      createdAt: 'x',
      updatedAt: 'y',
      secretSauce: 1,
    };
    expect(checkResult(ModelSchema, model)).toEqual({
      ok: true,
      value: { id: 'm1', modelType: 'person', status: 'Retraining-Soon', createdAt: 'x', updatedAt: 'y' },
    });
  });

  it('turn a wrongly typed field we never branch on into undefined', () => {
    const checked = checkResult(ImageSchema, {
      id: 'i1',
      url: 'u',
      modelID: 'm',
      type: 'output',
      liked: 'yes',
      data: 'str',
      folderID: null,
    });
    expect(checked.ok).toBe(true);
    expect(checked).toMatchObject({ value: { id: 'i1', liked: undefined, data: undefined, folderID: undefined } });
  });

  it('refuse answers missing what the code relies on, naming the field', () => {
    expect(checkResult(ModelSchema, { modelType: 'x', status: 'ready' })).toMatchObject({
      ok: false,
      reason: expect.stringContaining('result.id'),
    });
    expect(checkResult(JobSchema, { jobId: 'j', status: 'success', images: [{ id: 'a' }] })).toMatchObject({
      ok: false,
      reason: expect.stringContaining('result.images.0.url'),
    });
    expect(checkResult(TriggerSchema, { status: 'queued' }).ok).toBe(false);
    expect(checkResult(JobsPageSchema, { nextPageToken: 'x' }).ok).toBe(false);
  });

  it('read a trigger without status as queued, never as terminal', () => {
    expect(checkResult(TriggerSchema, { jobId: 'j1' })).toEqual({ ok: true, value: { jobId: 'j1', status: 'queued' } });
    expect(checkResult(JobsPageSchema, { jobs: [], nextPageToken: null })).toEqual({
      ok: true,
      value: { jobs: [], nextPageToken: '' },
    });
  });
});

describe('errors from answers', () => {
  const label = { method: 'GET', template: '/models/{modelID}' };

  it('map statuses to codes', () => {
    const expected: Record<number, string> = {
      400: 'validation',
      401: 'auth',
      403: 'auth',
      404: 'not_found',
      409: 'conflict',
      413: 'validation',
      415: 'validation',
      422: 'validation',
      429: 'rate_limited',
      500: 'server',
      502: 'server',
      503: 'server',
    };
    for (const [status, code] of Object.entries(expected)) expect(codeForStatus(Number(status))).toBe(code);
  });

  it('carry err, message, status and Retry-After', () => {
    const error = errorFromAnswer(
      {
        label,
        httpStatus: 429,
        serviceErr: 'too_many_trainings',
        serviceMessage: 'Two trainings run already',
        retryAfterMs: 4200,
      },
      [],
    );
    expect(error.info).toEqual({
      code: 'rate_limited',
      httpStatus: 429,
      serviceErr: 'too_many_trainings',
      retryAfterMs: 4200,
      message: 'The service is busy (HTTP 429, too_many_trainings): try again in 5 s. Two trainings run already',
    });
    expect(error.retryAfterMs).toBe(4200);
    expect(error.serviceErr).toBe('too_many_trainings');
    expect(error.httpStatus).toBe(429);
  });

  it('ask for a new key on 401/403 and pass the service message on validation errors', () => {
    expect(errorFromAnswer({ label, httpStatus: 401 }, []).message).toMatch(/Enter a new key/);
    const v = errorFromAnswer(
      { label, httpStatus: 400, serviceErr: 'validation_error', serviceMessage: 'numImages: must be 1 to 4' },
      [],
    );
    expect(v.info.code).toBe('validation');
    expect(v.message).toContain('numImages: must be 1 to 4');
  });

  it('read a NOK inside a 2xx by its err', () => {
    expect(errorFromAnswer({ label, httpStatus: 200, serviceErr: 'unauthorized' }, []).info.code).toBe('auth');
    expect(errorFromAnswer({ label, httpStatus: 200, serviceErr: 'not_found' }, []).info.code).toBe('not_found');
    expect(errorFromAnswer({ label, httpStatus: 200, serviceErr: 'whatever' }, []).info.code).toBe('validation');
  });

  it('redact secrets the service echoed into err or message', () => {
    const key = 'sk-SENTINEL-echo';
    const error = errorFromAnswer(
      { label, httpStatus: 400, serviceErr: `bad ${key}`, serviceMessage: `you sent Authorization: Bearer ${key}` },
      [key],
    );
    expect(JSON.stringify(error)).not.toContain(key);
    expect(error.stack).not.toContain(key);
    expect(malformedError(label, 200, `odd ${key}`, [key]).message).not.toContain(key);
  });
});

// POST /images/upload: multipart `file` + `data`, format by magic bytes, 20 MB request cap, 20 images per type.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import sharp from 'sharp';
import { detectImageFormat, UPLOAD_RULES, validateUploadData } from '../../src-main/contract/rules/index.ts';
import type { EmulatorContext } from '../context.ts';
import { badRequest, invalidField, okEnvelope, ServiceError } from '../envelope.ts';
import type { ImageRecord, UploadType } from '../records.ts';
import { userOf } from '../request-state.ts';
import { imageView } from '../views.ts';
import { imagesOfModel, ownedModel } from './models.ts';

const tooLarge = (): ServiceError =>
  new ServiceError(
    413,
    'payload_too_large',
    `The upload request exceeds ${UPLOAD_RULES.maxRequestBytes} bytes (20 MB)`,
  );

/**
 * Reads (and discards) an oversized body before answering, so the client receives the 413 instead of a
 * reset while it is still sending. Past a hard ceiling the connection is simply closed.
 */
async function drain(request: FastifyRequest, ceiling: number): Promise<void> {
  let seen = 0;
  for await (const chunk of request.raw) {
    seen += (chunk as Buffer).length;
    if (seen > ceiling) {
      request.raw.destroy();
      return;
    }
  }
}

interface UploadParts {
  file?: { bytes: Buffer; fileName: string };
  dataText?: string;
}

async function readParts(request: FastifyRequest): Promise<UploadParts> {
  const out: UploadParts = {};
  let total = 0;
  for await (const part of request.parts()) {
    if (part.type === 'file') {
      const bytes = await part.toBuffer();
      total += bytes.length;
      if (part.fieldname !== 'file')
        throw invalidField(part.fieldname, 'is not an upload part; send parts file and data');
      if (out.file) throw invalidField('file', 'send exactly one file');
      out.file = { bytes, fileName: part.filename };
    } else {
      const value = typeof part.value === 'string' ? part.value : String(part.value);
      total += Buffer.byteLength(value);
      if (part.fieldname !== 'data')
        throw invalidField(part.fieldname, 'is not an upload part; send parts file and data');
      out.dataText = value;
    }
    if (total > UPLOAD_RULES.maxRequestBytes) throw tooLarge();
  }
  return out;
}

async function imageSize(bytes: Buffer): Promise<{ width: number; height: number } | undefined> {
  try {
    const meta = await sharp(bytes).metadata();
    return meta.width && meta.height ? { width: meta.width, height: meta.height } : undefined;
  } catch {
    return undefined; // e.g. HEIC without a decoder: the upload is still valid, its size just stays unknown
  }
}

export function registerUploadRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  app.post('/images/upload', async (request) => {
    const owner = userOf(request);
    const declared = Number(request.headers['content-length'] ?? NaN);
    if (declared > UPLOAD_RULES.maxRequestBytes) {
      await drain(request, 4 * UPLOAD_RULES.maxRequestBytes);
      throw tooLarge();
    }
    if (!request.isMultipart())
      throw badRequest('POST /images/upload takes multipart/form-data with parts file and data');
    const parts = await readParts(request);
    if (parts.dataText === undefined)
      throw invalidField('data', 'is required: a JSON string {"modelID": …, "type": "modelInput" | "auxiliaryType"}');
    if (!parts.file) throw invalidField('file', 'is required: the image file');
    let data: unknown;
    try {
      data = JSON.parse(parts.dataText);
    } catch {
      throw invalidField('data', 'is not valid JSON');
    }
    const problems = validateUploadData(data);
    const first = problems[0];
    if (first)
      throw invalidField(first.field ? `data.${first.field}` : 'data', problems.map((p) => p.message).join('; '));
    const { modelID, type } = data as { modelID: string; type: UploadType };
    const model = ownedModel(ctx, owner, modelID);
    const format = detectImageFormat(parts.file.bytes);
    if (!format)
      throw invalidField(
        'file',
        `is not a ${UPLOAD_RULES.formats.join('/')} image (checked by its content, not its name)`,
      );
    const size = await imageSize(parts.file.bytes);
    // From here to the store update nothing awaits, so concurrent uploads cannot overshoot the per-type cap.
    const now = ctx.clock.now();
    const existing = imagesOfModel(ctx, owner, model.id, now).filter((i) => i.type === type).length;
    if (existing >= UPLOAD_RULES.maxPerType) {
      throw invalidField(
        'data.type',
        `model ${model.id} already has ${existing} ${type} images (at most ${UPLOAD_RULES.maxPerType} of each type)`,
      );
    }
    const image: ImageRecord = {
      id: ctx.store.newId('img'),
      ownerId: owner,
      modelID: model.id,
      type,
      createdAt: now,
      updatedAt: now,
      source: { kind: 'upload', format, sizeBytes: parts.file.bytes.length, fileName: parts.file.fileName },
      data: { fileName: parts.file.fileName, format, sizeBytes: parts.file.bytes.length, ...(size ?? {}) },
    };
    ctx.store.images.set(image.id, image);
    try {
      await ctx.uploads.put(image.id, parts.file.bytes);
    } catch (error) {
      ctx.store.images.delete(image.id);
      throw error;
    }
    ctx.store.changed();
    return okEnvelope(imageView(ctx, image, now));
  });
}

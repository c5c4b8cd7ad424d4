import type { IncomingMessage } from 'node:http';
import { RequestErrors } from '../errors/request-errors';

/** A file posted in a multipart form, held in memory. */
export interface UploadedFile {
  /** The form field it came in (`<input type="file" name="photo">` → `photo`). */
  readonly fieldName: string;
  /** The file's name on the client, as the client sent it: never a path to write to. */
  readonly originalName: string;
  /** The type the client declared (`image/png`): a claim, not a check of the content. */
  readonly mimeType: string;
  /** Its size in bytes. */
  readonly size: number;
  readonly buffer: Buffer;
}

/** What one handler accepts in a field; past it, 413. */
export interface UploadLimits {
  /** The largest file, in bytes. The whole body is bounded by the application's `bodyLimit` first. */
  readonly maxBytes?: number;
  /** How many files the field may hold. Default: any number (the body stage allows ten in all). */
  readonly maxCount?: number;
}

// What multer's memory storage leaves on `req.files`, as keel reads it.
interface ParsedPart {
  readonly fieldname: string;
  readonly originalname: string;
  readonly mimetype: string;
  readonly size: number;
  readonly buffer: Buffer;
}

/**
 * The files posted in `field`, checked against `limits`: 413 for a file over `maxBytes` or more
 * files than `maxCount`, 415 when the request is not a multipart form (no file could be in it).
 *
 * @example
 * const [photo] = uploadedFiles(req, 'photo', { maxBytes: 2_000_000, maxCount: 1 });
 */
export function uploadedFiles(
  req: IncomingMessage,
  field: string,
  limits: UploadLimits = {},
): UploadedFile[] {
  const parts = (req as { files?: readonly ParsedPart[] }).files;
  if (parts === undefined) {
    throw RequestErrors.fileFieldMissing(field);
  }
  const files = parts.filter((part) => part.fieldname === field);
  if (limits.maxCount !== undefined && files.length > limits.maxCount) {
    throw RequestErrors.tooManyFilesInField(field, limits.maxCount);
  }
  const { maxBytes } = limits;
  if (maxBytes !== undefined && files.some((file) => file.size > maxBytes)) {
    throw RequestErrors.fileTooLarge(field, maxBytes);
  }
  return files.map((part) => ({
    fieldName: part.fieldname,
    originalName: part.originalname,
    mimeType: part.mimetype,
    size: part.size,
    buffer: part.buffer,
  }));
}

import bytes from 'bytes';
import express, { type RequestHandler } from 'express';
import multer from 'multer';
import { HttpError } from '../errors';

const MULTIPART_LIMITS: Readonly<Record<string, { status: number; message: string }>> = {
  LIMIT_FILE_SIZE: { status: 413, message: 'uploaded file too large' },
  LIMIT_FIELD_VALUE: { status: 413, message: 'form field too large' },
  LIMIT_PART_COUNT: { status: 413, message: 'too many form parts' },
  LIMIT_FILE_COUNT: { status: 413, message: 'too many files' },
  LIMIT_FIELD_COUNT: { status: 413, message: 'too many form fields' },
  LIMIT_FIELD_KEY: { status: 413, message: 'form field name too long' },
};

/**
 * The body parsers every request passes through, each bounded by `limit`: JSON, urlencoded forms
 * and multipart forms (files are kept in memory on `req.files`).
 */
export function createBodyParsers(limit: string | number): RequestHandler[] {
  const limitBytes = typeof limit === 'number' ? limit : (bytes.parse(limit) ?? 1024 * 1024);
  const multipart = multer({
    storage: multer.memoryStorage(),
    limits: { fileSize: limitBytes, fieldSize: limitBytes, files: 10, fields: 1000 },
  }).any();
  const parseMultipart: RequestHandler = (req, res, next) =>
    multipart(req, res, (error?: unknown) => next(error === undefined ? undefined : multipartError(error)));
  return [express.json({ limit }), express.urlencoded({ limit, extended: false }), parseMultipart];
}

function multipartError(error: unknown): unknown {
  if (error instanceof multer.MulterError) {
    const known = MULTIPART_LIMITS[error.code];
    return new HttpError(known?.status ?? 400, known?.message ?? 'malformed multipart body', {
      cause: error,
    });
  }
  // busboy reports a broken body (no boundary, truncated part) as a plain Error.
  return new HttpError(400, 'malformed multipart body', { cause: error });
}

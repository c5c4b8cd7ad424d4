import type ContentDisposition from 'content-disposition';
import type MimeTypes from 'mime-types';
import type { ServerResponse } from 'node:http';
import path from 'node:path';
import type Send from 'send';
import type { Readable } from 'node:stream';
import { FileErrors } from '../errors/file-errors';
import { markHeadersObserved } from './held-headers';
import { OCTET_STREAM } from './send';
import { streamBody } from './body-stream';
import type { Request } from 'express';
import type { AnswerSettings } from './answer-settings';

/** How `ctx.sendFile` sends a file. */
export interface SendFileOptions {
  /** The name the client saves it under (`Content-Disposition`); default: the file's own name. */
  readonly filename?: string;
  /** Its `Content-Type`; default: from the name's extension, else `application/octet-stream`. */
  readonly type?: string;
  /** Shown by the browser (`Content-Disposition: inline`) rather than saved (`attachment`, the default). */
  readonly inline?: boolean;
  /** The directory a path is read from and must stay inside: a path that leaves it is a 404, never read. */
  readonly root?: string;
}

// Loaded by the first file sent, not at start-up (about 10 ms of it): most applications send none.
let parts:
  | {
      send: typeof Send;
      contentDisposition: typeof ContentDisposition.create;
      contentType: typeof MimeTypes.contentType;
    }
  | undefined;

function fileParts(): NonNullable<typeof parts> {
  /* eslint-disable @typescript-eslint/no-require-imports -- loaded with the first file */
  parts ??= {
    send: require('send') as typeof Send,
    contentDisposition: (require('content-disposition') as typeof ContentDisposition).create,
    contentType: (require('mime-types') as typeof MimeTypes).contentType,
  };
  /* eslint-enable @typescript-eslint/no-require-imports */
  return parts;
}

/**
 * Sends a file from disk with `send` (the library Express's `res.sendFile` uses): `Content-Type`,
 * `Content-Disposition`, `Last-Modified`, a weak `ETag` unless `etag` is false, byte ranges (206;
 * 416 past the end), `If-Range`, and conditional requests (304). A stream is sent as it comes
 * (no length, so no ranges), compressed as a returned stream is; a file from disk is sent as it is
 * (ranges count its own bytes). Resolves once the answer is out or the client left; rejects, before
 * anything is sent, with an error of the catalogue (404 for a missing file or a path outside `root`).
 *
 * @example
 * await sendFile(req, res, 'exports/orders.csv', { root: '/srv/data' }, runtime.answers);
 */
export function sendFile(
  req: Request,
  res: ServerResponse,
  file: string | Readable,
  options: SendFileOptions,
  answers: AnswerSettings,
): Promise<void> {
  if (typeof file !== 'string') {
    setFileHeaders(res, options.filename, options);
    return streamBody(res, 200, file, answers);
  }
  const target = resolveInside(file, options.root);
  if (target === undefined) return Promise.reject(FileErrors.fileOutsideRoot());
  setFileHeaders(res, options.filename ?? path.basename(target), options);
  return new Promise<void>((resolve, reject) => {
    const stream = fileParts().send(req, target, {
      etag: answers.etag,
      lastModified: true,
      cacheControl: false,
      acceptRanges: true,
      dotfiles: 'allow',
      index: false,
    });
    stream.on('error', (error: FileError) => reject(catalogued(error)));
    stream.on('directory', () => reject(FileErrors.fileNotFound()));
    res.once('close', () => resolve());
    stream.pipe(res);
  });
}

// The absolute path of `file`, or undefined when it leaves `root` or cannot name a file (a NUL byte).
function resolveInside(file: string, root: string | undefined): string | undefined {
  if (file.includes('\0')) return undefined;
  if (root === undefined) return path.resolve(file);
  const base = path.resolve(root);
  const target = path.resolve(base, file);
  return target.startsWith(base + path.sep) ? target : undefined;
}

function setFileHeaders(res: ServerResponse, filename: string | undefined, options: SendFileOptions): void {
  // send reads and writes the response's own headers: what keel held is set on it first.
  markHeadersObserved(res);
  const { contentType, contentDisposition } = fileParts();
  const type = options.type ?? (filename ? contentType(filename) : false);
  res.setHeader('Content-Type', type || OCTET_STREAM);
  const disposition = options.inline ? 'inline' : 'attachment';
  res.setHeader(
    'Content-Disposition',
    filename ? contentDisposition(filename, { type: disposition }) : disposition,
  );
}

/** What send rejects with: an http-errors error, carrying the fs error's code when there was one. */
interface FileError extends Error {
  readonly status?: number;
  readonly headers?: Readonly<Record<string, string>>;
}

function catalogued(error: FileError): Error {
  if (error.status === 404) return FileErrors.fileNotFound();
  if (error.status === 412) return FileErrors.preconditionFailed();
  if (error.status === 416)
    return FileErrors.rangeNotSatisfiable(error.headers?.['Content-Range'] ?? 'bytes */0');
  return FileErrors.fileUnreadable(error.message, error);
}

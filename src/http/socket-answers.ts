import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { RequestErrors } from '../errors/request-errors';
import { answerOf, type ErrorAnswer } from './error-responder';
import type { ErrorShape } from './error-shape';

// Written by hand: Node hands a CONNECT request, or one it could not read, over as a bare socket,
// with no response object. Each answer closes the connection, as nothing more can be read from it.
function socketAnswer(shape: ErrorShape, answer: ErrorAnswer, extraHeaders = ''): string {
  const body = shape.body(answer);
  return (
    `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? 'Error'}\r\n` +
    extraHeaders +
    `Content-Type: ${shape.contentType}\r\n` +
    'X-Content-Type-Options: nosniff\r\n' +
    'Cache-Control: no-store\r\n' +
    'Connection: close\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
  );
}

/**
 * Makes `server` answer a CONNECT request (a proxy tunnel, which keel never serves) with 405 (in
 * `shape`) and close the connection, where Node would close it without a word.
 *
 * @example
 * refuseConnect(server, shape);
 */
export function refuseConnect(server: Server, shape: ErrorShape): void {
  const answer = socketAnswer(
    shape,
    { status: 405, message: 'method CONNECT not allowed', code: RequestErrors.methodNotAllowed.code },
    'Allow: GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS\r\n',
  );
  server.on('connect', (_req: unknown, socket: Duplex) => {
    socket.on('error', () => socket.destroy());
    socket.end(answer);
  });
}

// What Node's parser and timers report, and what the client is told of each; anything else is a
// request Node could not read.
const CLIENT_ERRORS: Readonly<Record<string, ErrorAnswer>> = {
  ERR_HTTP_REQUEST_TIMEOUT: answerOf(RequestErrors.requestTimeout),
  HPE_HEADER_OVERFLOW: answerOf(RequestErrors.headersTooLarge),
  HPE_CHUNK_EXTENSIONS_OVERFLOW: answerOf(RequestErrors.bodyTooLarge),
};
const MALFORMED = answerOf(RequestErrors.malformedRequest);

/**
 * Makes `server` answer a request Node could not read (a broken request line or header, headers
 * too large, too slow) in `shape`, where Node would answer with a bare status line: 400, 408 or
 * 431, then close the connection. A connection already answered on, or gone, is only closed.
 *
 * @example
 * answerClientErrors(server, shape);
 */
export function answerClientErrors(server: Server, shape: ErrorShape): void {
  const answers = new Map(
    [...Object.entries(CLIENT_ERRORS), ['', MALFORMED] as const].map(([code, answer]) => [
      code,
      socketAnswer(shape, answer),
    ]),
  );
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex & { bytesWritten?: number }) => {
    // As Node's own answer: only on a connection that has been sent nothing yet.
    if (!socket.writable || (socket.bytesWritten ?? 0) > 0 || error.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    socket.on('error', () => socket.destroy());
    socket.end(answers.get(error.code ?? '') ?? answers.get(''));
  });
}

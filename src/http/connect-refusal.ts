import type http from 'node:http';
import type { Duplex } from 'node:stream';
import type { ErrorShape } from './error-shape';

// Written by hand: Node hands a CONNECT request over as a bare socket, with no response object.
function connectAnswer(shape: ErrorShape): string {
  const body = shape.body({
    status: 405,
    message: 'method CONNECT not allowed',
    code: 'E_METHOD_NOT_ALLOWED',
  });
  return (
    'HTTP/1.1 405 Method Not Allowed\r\n' +
    'Allow: GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS\r\n' +
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
export function refuseConnect(server: http.Server, shape: ErrorShape): void {
  const answer = connectAnswer(shape);
  server.on('connect', (_req: http.IncomingMessage, socket: Duplex) => {
    socket.on('error', () => socket.destroy());
    socket.end(answer);
  });
}

import type http from 'node:http';
import type { Duplex } from 'node:stream';

const BODY = JSON.stringify({ error: 'method CONNECT not allowed' });

// Written by hand: Node hands a CONNECT request over as a bare socket, with no response object.
const ANSWER =
  'HTTP/1.1 405 Method Not Allowed\r\n' +
  'Allow: GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS\r\n' +
  'Content-Type: application/json; charset=utf-8\r\n' +
  'X-Content-Type-Options: nosniff\r\n' +
  'Cache-Control: no-store\r\n' +
  'Connection: close\r\n' +
  `Content-Length: ${Buffer.byteLength(BODY)}\r\n\r\n${BODY}`;

/**
 * Makes `server` answer a CONNECT request (a proxy tunnel, which keel never serves) with 405 and
 * close the connection, where Node would close it without a word.
 *
 * @example
 * refuseConnect(server);
 */
export function refuseConnect(server: http.Server): void {
  server.on('connect', (_req: http.IncomingMessage, socket: Duplex) => {
    socket.on('error', () => socket.destroy());
    socket.end(ANSWER);
  });
}

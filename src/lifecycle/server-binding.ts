import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Binds `server` to `port` on `host` (undefined: every interface); rejects with the listen error
 * (`EADDRINUSE`, `EACCES`) rather than emitting it.
 *
 * @example
 * await bindServer(server, 0, '127.0.0.1');
 */
export function bindServer(server: Server, port: number, host: string | undefined): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

// A server bound to every interface (the default) answers on localhost: that is the address to open.
const EVERY_INTERFACE = new Set(['::', '0.0.0.0']);

/** The `http://host:port` to open for a bound server. @example urlOf(server.address() as AddressInfo) // 'http://localhost:8080' */
export function urlOf(address: AddressInfo): string {
  const host = EVERY_INTERFACE.has(address.address)
    ? 'localhost'
    : address.family === 'IPv6'
      ? `[${address.address}]`
      : address.address;
  return `http://${host}:${address.port}`;
}

import net from 'node:net';

/** What the server did with bytes sent on a connection of their own. */
export interface RawOutcome {
  /** The status of the first answer, or undefined when none came. */
  readonly status: number | undefined;
  /** True when the connection ended in a reset rather than a close. */
  readonly wasReset: boolean;
  /** True when the server neither answered nor closed within the time allowed. */
  readonly hung: boolean;
}

/**
 * Sends `bytes` to `port` on the loopback on a new connection and waits for the server to answer
 * and close, for at most `timeoutMs`.
 *
 * @example
 * const { status } = await sendRaw(8080, Buffer.from('CONNECT x:443 HTTP/1.1\r\n\r\n'), 2000);
 */
export function sendRaw(port: number, bytes: Buffer, timeoutMs: number): Promise<RawOutcome> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    let wasReset = false;
    const timer = setTimeout(() => {
      finish(true);
      socket.destroy();
    }, timeoutMs);
    const finish = (hung: boolean) => {
      clearTimeout(timer);
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(received)?.[1];
      resolve({ status: status === undefined ? undefined : Number(status), wasReset, hung });
    };
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      received += chunk;
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      wasReset = error.code === 'ECONNRESET' || error.code === 'EPIPE';
    });
    socket.on('close', () => finish(false));
    socket.end(bytes);
  });
}

import WebSocket from 'ws';

/** A frame the server sent: `{ event, data }`. */
export interface Frame {
  readonly event: string;
  readonly data?: unknown;
}

/** A WebSocket client that keeps every frame it received and how its connection ended. */
export interface WsClient {
  readonly ws: WebSocket;
  readonly frames: Frame[];
  /** Resolves with the close code and reason once the connection has closed. */
  readonly closed: Promise<{ code: number; reason: string }>;
  send(event: string, data?: unknown): void;
  /** Resolves with the next frame of `event` not yet taken. */
  next(event: string, timeoutMs?: number): Promise<Frame>;
}

/**
 * Opens a WebSocket to `url` (`ws://...`) with `headers` and the `ws` client's `options` (`autoPong:
 * false` for a client that never answers a ping), and resolves once it is open; rejects on an HTTP refusal.
 */
export function connect(
  url: string,
  headers: Record<string, string> = {},
  options: Omit<WebSocket.ClientOptions, 'headers'> = {},
): Promise<WsClient> {
  const ws = new WebSocket(url, { ...options, headers });
  const frames: Frame[] = [];
  const taken = new Set<Frame>();
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  ws.on('message', (data) => frames.push(JSON.parse(data.toString()) as Frame));
  const client: WsClient = {
    ws,
    frames,
    closed,
    send: (event, data) => ws.send(JSON.stringify({ event, data })),
    // Woken by each frame as it arrives: no polling.
    next: (event, timeoutMs = 10_000) =>
      new Promise<Frame>((resolve, reject) => {
        const take = (): boolean => {
          const frame = frames.find((candidate) => candidate.event === event && !taken.has(candidate));
          if (!frame) return false;
          taken.add(frame);
          clearTimeout(timer);
          ws.off('message', onMessage);
          resolve(frame);
          return true;
        };
        const onMessage = (): void => void take();
        const timer = setTimeout(() => {
          ws.off('message', onMessage);
          reject(new Error(`no '${event}' frame; got ${JSON.stringify(frames)}`));
        }, timeoutMs);
        if (!take()) ws.on('message', onMessage);
      }),
  };
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(client));
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      res.on('end', () => reject(new Refused(res.statusCode ?? 0, body)));
    });
    ws.once('error', reject);
  });
}

/** An upgrade the server answered with plain HTTP. */
export class Refused extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
  ) {
    super(`upgrade refused ${status}: ${body}`);
  }
}

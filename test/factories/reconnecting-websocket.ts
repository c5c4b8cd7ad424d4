import WebSocket from 'ws';

/** One connection of a reconnecting WebSocket client: which server process took it, what came. */
export interface WebSocketConnection {
  /** The pid the server's `joined` frame named; undefined until it arrived. */
  pid: number | undefined;
  /** `tick` frames received on it. */
  ticks: number;
  /** The close code, once it closed (1006 when it closed without a close frame). */
  closeCode: number | undefined;
}

/** What one reconnecting WebSocket client received and how its connections ended. */
export interface WebSocketRecord {
  /** The id of each `tick` frame, in the order it arrived. */
  readonly ids: number[];
  /** Every connection that opened, in order; the last is the current one. */
  readonly connections: WebSocketConnection[];
  /** Connections opened again after one closed (or failed to open). */
  reconnects: number;
}

/** A running client: what it received, and how to stop it. */
export interface ReconnectingWebSocket {
  readonly record: WebSocketRecord;
  /** The open connection's server pid; undefined while it is not open and joined. */
  readonly pid: number | undefined;
  stop(): void;
}

// The client's reconnection delay: a rate, not a wait for something to happen.
const RECONNECT_MS = 250;

/**
 * Opens a WebSocket to `url` (`ws://...`), joins the fixture's feed, and connects again whenever its
 * socket closes; it has no resume. Each connection keeps the server pid its `joined` frame named,
 * its tick count and its close code, so a test can tell which closes a restart caused.
 *
 * @example
 * const client = openReconnectingWebSocket(`${wsUrl}/ws`);
 */
export function openReconnectingWebSocket(url: string): ReconnectingWebSocket {
  const record: WebSocketRecord = { ids: [], connections: [], reconnects: 0 };
  let isStopped = false;
  let current: { ws: WebSocket; connection: WebSocketConnection | undefined } | undefined;

  const connect = (): void => {
    const ws = new WebSocket(url);
    const state: { ws: WebSocket; connection: WebSocketConnection | undefined } = {
      ws,
      connection: undefined,
    };
    current = state;
    ws.on('open', () => {
      state.connection = { pid: undefined, ticks: 0, closeCode: undefined };
      record.connections.push(state.connection);
    });
    ws.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as { event: string; id?: string; data?: { pid?: number } };
      const connection = state.connection;
      if (connection === undefined) return;
      if (frame.event === 'joined') connection.pid = frame.data?.pid;
      if (frame.event === 'tick' && frame.id !== undefined) {
        connection.ticks += 1;
        record.ids.push(Number(frame.id));
      }
    });
    ws.on('error', () => undefined);
    ws.on('close', (code) => {
      if (state.connection) state.connection.closeCode = code;
      if (isStopped) return;
      record.reconnects += 1;
      setTimeout(connect, RECONNECT_MS);
    });
  };
  connect();
  return {
    record,
    get pid() {
      const connection = current?.connection;
      return current?.ws.readyState === WebSocket.OPEN ? connection?.pid : undefined;
    },
    stop: () => {
      isStopped = true;
      current?.ws.terminate();
    },
  };
}

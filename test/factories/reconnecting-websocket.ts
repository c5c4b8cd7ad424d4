import WebSocket from 'ws';
import { orderIdOf, type ReceivedOrder } from './delivery-tally';

/** One connection of a reconnecting WebSocket client: which server process took it, what came. */
export interface WebSocketConnection {
  /** The pid the server's `hello` frame named; undefined until it arrived. */
  pid: number | undefined;
  /** `order` frames received on it. */
  orders: number;
  /** The close code, once it closed (1006 when it closed without a close frame). */
  closeCode: number | undefined;
}

/** What one reconnecting WebSocket client received and how its connections ended. */
export interface WebSocketRecord {
  /** Each `order` frame (its event id, and the order it carries), in the order it arrived. */
  readonly orders: ReceivedOrder[];
  /** Every connection that opened, in order; the last is the current one. */
  readonly connections: WebSocketConnection[];
  /** Connections opened again after one closed (or failed to open). */
  reconnects: number;
}

/** A running client: what it received, and how to stop it. */
export interface ReconnectingWebSocket {
  readonly record: WebSocketRecord;
  /** The open connection's server pid; undefined while it is not open and greeted. */
  readonly pid: number | undefined;
  stop(): void;
}

// The client's reconnection delay: a rate, not a wait for something to happen.
const RECONNECT_MS = 250;

/**
 * Opens a WebSocket to `url` (`ws://...`, the sample's `/orders/live/socket`, which joins the live
 * orders and says hello with its pid), and connects again whenever its socket closes; it has no
 * resume. Each connection keeps the server pid its `hello` frame named, its count of `order` frames
 * and its close code, so a test can tell which closes a restart caused.
 *
 * @example
 * const client = openReconnectingWebSocket(`${wsUrl}/orders/live/socket`);
 */
export function openReconnectingWebSocket(url: string): ReconnectingWebSocket {
  const record: WebSocketRecord = { orders: [], connections: [], reconnects: 0 };
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
      state.connection = { pid: undefined, orders: 0, closeCode: undefined };
      record.connections.push(state.connection);
    });
    ws.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as { event: string; id?: string; data?: unknown };
      const connection = state.connection;
      if (connection === undefined) return;
      if (frame.event === 'hello') connection.pid = (frame.data as { pid?: number } | undefined)?.pid;
      if (frame.event === 'order' && frame.id !== undefined) {
        connection.orders += 1;
        record.orders.push({ eventId: Number(frame.id), orderId: orderIdOf(frame.data) });
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

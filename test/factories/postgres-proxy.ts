import net from 'node:net';

/**
 * How the proxy treats traffic: `forward` passes it on; `blackhole` accepts connections and holds
 * every byte (a database that hangs: no answer, no error) until forwarding resumes; `hold-queries`
 * lets connections open and log in, then holds every query (a server that accepts logins and stops
 * answering); `down` closes the port, so connecting fails with ECONNREFUSED.
 */
export type ProxyMode = 'forward' | 'blackhole' | 'hold-queries' | 'down';

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
const QUERY = 'Q'.charCodeAt(0);
const PARSE = 'P'.charCodeAt(0);

/**
 * What the proxy reads of the bytes it passes: PostgreSQL's wire protocol (so it counts queries and
 * can hold them), or nothing, for any other server (MariaDB), where only `forward`, `blackhole`,
 * `down` and severing apply.
 */
export type ProxiedProtocol = 'postgres' | 'opaque';

/**
 * A TCP proxy in front of a real PostgreSQL server that counts the queries its clients send (simple
 * `Q` and extended `P` messages, read from the wire protocol), so a test sees what the database side
 * sees, and that can make the database hang or vanish and come back. With the `opaque` protocol it
 * does the same for any server, without reading queries.
 */
export class PostgresProxy {
  /** Queries clients sent through the proxy, in any mode. */
  queries = 0;
  /** The text of each of those queries, in order. */
  readonly queryTexts: string[] = [];
  /** Queries that arrived while the proxy was holding traffic (blackhole). */
  heldQueries = 0;
  #mode: ProxyMode = 'forward';
  readonly #connections = new Set<ProxiedConnection>();
  #server: net.Server | undefined;

  private constructor(
    readonly targetUrl: string,
    public port: number,
    readonly protocol: ProxiedProtocol,
  ) {}

  /** Starts a proxy to the server of `targetUrl`, in `mode`. */
  static async start(
    targetUrl: string,
    mode: ProxyMode = 'forward',
    protocol: ProxiedProtocol = 'postgres',
  ): Promise<PostgresProxy> {
    const proxy = new PostgresProxy(targetUrl, 0, protocol);
    await proxy.#listen();
    if (mode !== 'forward') await proxy.setMode(mode);
    return proxy;
  }

  /** `targetUrl` pointed at the proxy. */
  get url(): string {
    const url = new URL(this.targetUrl);
    url.hostname = '127.0.0.1';
    url.port = String(this.port);
    return url.toString();
  }

  get mode(): ProxyMode {
    return this.#mode;
  }

  /** Client connections open through the proxy now. */
  get openConnections(): number {
    return this.#connections.size;
  }

  /** Changes how traffic is treated; `forward` after `blackhole` delivers everything that was held. */
  async setMode(mode: ProxyMode): Promise<void> {
    const previous = this.#mode;
    this.#mode = mode;
    if (mode === 'down') {
      for (const connection of this.#connections) connection.destroy();
      await this.#closeListener();
    } else if (previous === 'down') {
      await this.#listen();
    }
    if (mode === 'forward') for (const connection of this.#connections) connection.flush();
  }

  /**
   * Makes the connections open now dead without telling either side, as a network that drops them
   * silently would: nothing they send is delivered, ever. New connections are not affected.
   */
  severConnections(): void {
    for (const connection of this.#connections) connection.sever();
  }

  /** Closes the port and every connection. */
  async close(): Promise<void> {
    await this.setMode('down');
  }

  /** Called by connections for each query a client sent. @internal */
  countQuery(text: string): void {
    this.queries += 1;
    this.queryTexts.push(text);
    if (this.#mode === 'blackhole' || this.#mode === 'hold-queries') this.heldQueries += 1;
  }

  /** Called by connections when they end. @internal */
  forget(connection: ProxiedConnection): void {
    this.#connections.delete(connection);
  }

  async #listen(): Promise<void> {
    const server = net.createServer((client) => {
      this.#connections.add(new ProxiedConnection(client, this));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as net.AddressInfo).port;
    this.#server = server;
  }

  async #closeListener(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** One client connection and its upstream twin; bytes wait in queues while the proxy holds them. */
class ProxiedConnection {
  readonly #toServer: Buffer[] = [];
  readonly #toClient: Buffer[] = [];
  readonly #reader: FrontendMessageReader | undefined;
  #upstream: net.Socket | undefined;
  #isHoldingQueries = false;
  #isSevered = false;

  constructor(
    readonly client: net.Socket,
    readonly proxy: PostgresProxy,
  ) {
    this.#reader =
      proxy.protocol === 'postgres' ? new FrontendMessageReader((text) => proxy.countQuery(text)) : undefined;
    client.on('data', (chunk) => this.#fromClient(chunk));
    client.on('close', () => this.destroy());
    client.on('error', () => this.destroy());
    this.flush();
  }

  flush(): void {
    const { mode } = this.proxy;
    if (this.#isSevered || this.client.destroyed || mode === 'blackhole' || mode === 'down') return;
    if (mode === 'forward') this.#isHoldingQueries = false;
    this.#upstream ??= this.#connectUpstream();
    const sendable = this.#isHoldingQueries ? [] : this.#toServer.splice(0);
    for (const chunk of sendable) this.#upstream.write(chunk);
    for (const chunk of this.#toClient.splice(0)) this.client.write(chunk);
  }

  sever(): void {
    this.#isSevered = true;
  }

  destroy(): void {
    this.client.destroy();
    this.#upstream?.destroy();
    this.proxy.forget(this);
  }

  #fromClient(chunk: Buffer): void {
    const queryAt = this.#reader?.read(chunk) ?? -1;
    if (this.proxy.mode === 'hold-queries' && !this.#isHoldingQueries && queryAt >= 0) {
      // What precedes the first query goes on now; the query and all after it wait.
      this.#toServer.push(chunk.subarray(0, queryAt));
      this.flush();
      this.#isHoldingQueries = true;
      this.#toServer.push(chunk.subarray(queryAt));
      return;
    }
    this.#toServer.push(chunk);
    this.flush();
  }

  #connectUpstream(): net.Socket {
    const { hostname, port } = new URL(this.proxy.targetUrl);
    const upstream = net.connect({ host: hostname, port: Number(port || 5432) });
    upstream.on('data', (chunk) => {
      this.#toClient.push(chunk);
      this.flush();
    });
    upstream.on('close', () => this.destroy());
    upstream.on('error', () => this.destroy());
    return upstream;
  }
}

/**
 * Splits a client's byte stream into PostgreSQL frontend messages: untyped startup-phase messages
 * (SSL and GSS requests, cancel requests, the startup message), then typed ones.
 */
class FrontendMessageReader {
  #buffer = Buffer.alloc(0);
  #hasStarted = false;

  constructor(private readonly onQuery: (text: string) => void) {}

  /** Reads `chunk`; returns where in it the first query message starts, or -1. */
  read(chunk: Buffer): number {
    const carried = this.#buffer.length;
    this.#buffer = Buffer.concat([this.#buffer, chunk]);
    let consumed = 0;
    let queryAt = -1;
    for (;;) {
      const headerLength = this.#hasStarted ? 5 : 8;
      if (this.#buffer.length < headerLength) return queryAt;
      const type = this.#hasStarted ? this.#buffer[0] : undefined;
      const length = this.#hasStarted ? this.#buffer.readInt32BE(1) + 1 : this.#buffer.readInt32BE(0);
      if (this.#buffer.length < length) return queryAt;
      if (type === undefined) {
        const code = this.#buffer.readInt32BE(4);
        if (code !== SSL_REQUEST && code !== GSSENC_REQUEST && code !== CANCEL_REQUEST)
          this.#hasStarted = true;
      } else if (type === QUERY || type === PARSE) {
        // Q carries the text; P carries a statement name, then the text (both NUL-terminated).
        const strings = this.#buffer.subarray(5, length).toString('utf8').split('\0');
        this.onQuery((type === QUERY ? strings[0] : strings[1]) ?? '');
        if (queryAt < 0) queryAt = Math.max(0, consumed - carried);
      }
      consumed += length;
      this.#buffer = this.#buffer.subarray(length);
    }
  }
}

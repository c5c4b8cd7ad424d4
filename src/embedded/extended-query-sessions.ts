/** The part of PGlite that pglite-socket's queue drives. */
interface ProtocolDatabase {
  isInTransaction(): boolean;
  execProtocolRawStream(message: Uint8Array, options: object): Promise<unknown>;
  exec(query: string): Promise<unknown>;
}

/**
 * `db` as pglite-socket's server should see it: "in a transaction" also from the first message of
 * an extended query (Parse, Bind, ...) to its Sync. The server runs one PGlite session for all its
 * connections and interleaves their messages outside transactions, so without this one
 * connection's Parse could land between another's Parse and Bind, and the second would fail with
 * `unnamed prepared statement does not exist` (or hang): its queue keeps to one connection only
 * while the session is in a transaction.
 *
 * It refers to nothing outside itself, so that its source can run in a worker thread too.
 *
 * @example
 * new PGLiteSocketServer({ db: withExtendedQuerySessions(db), port: 0 });
 */
export function withExtendedQuerySessions<Database extends ProtocolDatabase>(db: Database): Database {
  // The frontend messages of PostgreSQL's extended query protocol that leave a sequence open until
  // the Sync ('S') that ends it: Parse, Bind, Describe, Execute, Close, Flush.
  const OPENS_SEQUENCE = new Set(['P', 'B', 'D', 'E', 'C', 'H'].map((letter) => letter.charCodeAt(0)));
  const SYNC = 'S'.charCodeAt(0);
  let isSequenceOpen = false;
  const isInTransaction = (): boolean => isSequenceOpen || db.isInTransaction();
  const execProtocolRawStream = async (message: Uint8Array, options: object): Promise<unknown> => {
    const type = message[0];
    if (type !== undefined && OPENS_SEQUENCE.has(type)) isSequenceOpen = true;
    try {
      return await db.execProtocolRawStream(message, options);
    } finally {
      if (type === SYNC) isSequenceOpen = false;
    }
  };
  // The server rolls back for a connection that left in a transaction; one that left in the middle
  // of an extended query leaves nothing to roll back, and no sequence open.
  const exec = (query: string): Promise<unknown> => {
    isSequenceOpen = false;
    return db.exec(query);
  };
  return new Proxy(db, {
    get(target, key) {
      if (key === 'isInTransaction') return isInTransaction;
      if (key === 'execProtocolRawStream') return execProtocolRawStream;
      if (key === 'exec') return exec;
      // PGlite's own getters and methods run on PGlite itself, whose private fields a proxy lacks.
      const value: unknown = Reflect.get(target, key);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

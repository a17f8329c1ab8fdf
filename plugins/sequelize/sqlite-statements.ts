/** A node-sqlite3 prepared statement, as far as an INSERT goes. */
interface Statement {
  run(parameters: unknown, done: (this: { lastID: number }, error: Error | null) => void): unknown;
  finalize(done?: () => void): unknown;
}

/** The part of a node-sqlite3 `Database` the cache uses. */
export interface PreparingConnection {
  prepare(sql: string, done: (error: Error | null) => void): Statement;
  close(done?: (error: Error | null) => void): unknown;
}

/** Statements kept per connection: one per INSERT shape of each model, so a handful in practice. */
const MAX_STATEMENTS = 64;
const caches = new WeakMap<PreparingConnection, Map<string, Statement>>();

/**
 * Runs `sql` with `parameters` through a statement prepared once per
 * connection, and resolves with the row id it inserted. node-sqlite3's
 * `run(sql)` prepares, runs and finalizes a statement each time, three
 * trips through libuv's thread pool where a kept statement takes one.
 *
 * A kept statement must be finalized before its connection closes, or the
 * close fails: the connection's `close` finalizes them first. A statement
 * whose run fails is dropped, so a later run prepares a fresh one.
 */
export function runPrepared(connection: PreparingConnection, sql: string, parameters: unknown): Promise<number> {
  const cache = cacheOf(connection);
  const kept = cache.get(sql);
  if (kept) return run(cache, sql, kept, parameters);
  return new Promise((resolve, reject) => {
    const statement = connection.prepare(sql, (error) => {
      // a statement that failed to prepare never answers a run (nor a finalize): it holds nothing to release
      if (error) return reject(error);
      keep(cache, sql, statement);
      run(cache, sql, statement, parameters).then(resolve, reject);
    });
  });
}

function run(cache: Map<string, Statement>, sql: string, statement: Statement, parameters: unknown): Promise<number> {
  return new Promise((resolve, reject) => {
    statement.run(parameters, function (error) {
      if (!error) return resolve(this.lastID);
      if (cache.get(sql) === statement) cache.delete(sql);
      statement.finalize();
      reject(error);
    });
  });
}

function keep(cache: Map<string, Statement>, sql: string, statement: Statement): void {
  cache.set(sql, statement);
  if (cache.size <= MAX_STATEMENTS) return;
  const [oldest, evicted] = cache.entries().next().value as [string, Statement];
  cache.delete(oldest);
  evicted.finalize();
}

function cacheOf(connection: PreparingConnection): Map<string, Statement> {
  let cache = caches.get(connection);
  if (cache) return cache;
  cache = new Map();
  caches.set(connection, cache);
  finalizeBeforeClose(connection, cache);
  return cache;
}

/** SQLite refuses to close a connection with statements left unfinalized. */
function finalizeBeforeClose(connection: PreparingConnection, cache: Map<string, Statement>): void {
  const close = connection.close.bind(connection);
  connection.close = (done) => {
    const statements = [...cache.values()];
    cache.clear();
    let left = statements.length;
    if (left === 0) return close(done);
    for (const statement of statements) statement.finalize(() => void (--left === 0 && close(done)));
    return connection;
  };
}

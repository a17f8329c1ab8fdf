type Row = Record<string, unknown>;

/** A node-sqlite3 prepared statement. */
interface Statement {
  run(parameters: unknown, done: (this: RunResult, error: Error | null) => void): unknown;
  all(parameters: unknown, done: (error: Error | null, rows: Row[]) => void): unknown;
  finalize(done?: () => void): unknown;
}

/** The part of a node-sqlite3 `Database` the cache uses. */
export interface PreparingConnection {
  prepare(sql: string, done: (error: Error | null) => void): Statement;
  close(done?: (error: Error | null) => void): unknown;
}

/**
 * Statements kept per connection, the least recently used out first: the
 * INSERT of each model, and the SELECTs a hot page repeats (its page, count
 * and sideloads of the same ids), while reads seen once pass through.
 */
const MAX_STATEMENTS = 128;

/** A connection's kept statements, and what a close must wait for. */
interface Kept {
  readonly statements: Map<string, Statement>;
  /** Prepares, runs and finalizes under way. */
  busy: number;
  /** Set once the connection is asked to close: then nothing more is kept. */
  closing?: () => void;
}
const kept = new WeakMap<PreparingConnection, Kept>();

/** What a write statement tells: the last row id it inserted, and how many rows it changed. */
export interface RunResult {
  readonly lastID: number;
  readonly changes: number;
}

/** Runs an INSERT, UPDATE or DELETE (`sql` with `parameters`). */
export function runPrepared(connection: PreparingConnection, sql: string, parameters: unknown): Promise<RunResult> {
  return usePrepared(connection, sql, (statement, settle) => statement.run(parameters, function (error) {
    settle(error, { lastID: this?.lastID, changes: this?.changes });
  }));
}

/** Runs a SELECT and resolves with its rows. */
export function selectPrepared(connection: PreparingConnection, sql: string): Promise<Row[]> {
  return usePrepared(connection, sql, (statement, settle) => statement.all([], (error, rows) => settle(error, rows)));
}

type Use<T> = (statement: Statement, settle: (error: Error | null, result: T) => void) => unknown;

/**
 * Runs `sql` through a statement prepared once per connection and SQL text.
 * node-sqlite3's `run(sql)` and `all(sql)` prepare, run and finalize a
 * statement each time: two trips through libuv's thread pool and a compile
 * of the SQL, where a kept statement takes one trip. A statement that has
 * run to completion holds no lock and no read snapshot, so keeping it is
 * free of side effects; one whose run fails is dropped. SQLite refuses to
 * close a connection with statements left unfinalized: its close waits for
 * the statements under way, then finalizes the kept ones.
 */
function usePrepared<T>(connection: PreparingConnection, sql: string, use: Use<T>): Promise<T> {
  const state = stateOf(connection);
  const statement = state.closing ? undefined : state.statements.get(sql);
  if (statement) {
    // to the back of the line: the Map's order is the order of last use
    state.statements.delete(sql);
    state.statements.set(sql, statement);
  }
  state.busy++;
  const settled = statement ? run(state, sql, statement, use) : prepareAndRun(connection, state, sql, use);
  return settled.finally(() => done(state));
}

function prepareAndRun<T>(connection: PreparingConnection, state: Kept, sql: string, use: Use<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    const statement = connection.prepare(sql, (error) => {
      // a statement that failed to prepare never answers a run (nor a finalize): it holds nothing to release
      if (error) return reject(error);
      // one kept per SQL text: a twin prepared by a concurrent request, or one prepared while closing, runs once
      const keeping = !state.closing && !state.statements.has(sql);
      if (keeping) keep(state, sql, statement);
      const ran = run(state, sql, statement, use);
      if (keeping) return void ran.then(resolve, reject);
      ran.then((result) => finalize(state, statement).then(() => resolve(result)), reject);
    });
  });
}

function run<T>(state: Kept, sql: string, statement: Statement, use: Use<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    use(statement, (error, result) => {
      if (!error) return resolve(result);
      if (state.statements.get(sql) === statement) state.statements.delete(sql);
      void finalize(state, statement).then(() => reject(error));
    });
  });
}

function keep(state: Kept, sql: string, statement: Statement): void {
  state.statements.set(sql, statement);
  if (state.statements.size <= MAX_STATEMENTS) return;
  const [oldest, evicted] = state.statements.entries().next().value as [string, Statement];
  state.statements.delete(oldest);
  void finalize(state, evicted);
}

/** Finalizes a statement no longer kept, counted as under way until it is done. */
function finalize(state: Kept, statement: Statement): Promise<void> {
  state.busy++;
  return new Promise<void>((resolve) => statement.finalize(() => resolve())).then(() => done(state));
}

function done(state: Kept): void {
  state.busy--;
  if (state.busy === 0) state.closing?.();
}

function stateOf(connection: PreparingConnection): Kept {
  let state = kept.get(connection);
  if (state) return state;
  state = { statements: new Map(), busy: 0 };
  kept.set(connection, state);
  finalizeBeforeClose(connection, state);
  return state;
}

/** The connection's close, once its statements under way are over and its kept ones finalized. */
function finalizeBeforeClose(connection: PreparingConnection, state: Kept): void {
  const close = connection.close.bind(connection);
  connection.close = (callback) => {
    if (state.closing) return close(callback);
    let closed = false;
    state.closing = () => {
      if (closed) return;
      const statements = [...state.statements.values()];
      state.statements.clear();
      if (statements.length > 0) return statements.forEach((statement) => void finalize(state, statement));
      closed = true;
      close(callback);
    };
    if (state.busy === 0) state.closing();
    return connection;
  };
}

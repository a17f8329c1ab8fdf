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

/** Statements left to finalize past which they are finalized at once: a connection never idle must not grow them without end. */
const MAX_UNFINALIZED = 256;

/** A kept statement, and whether it ran since the eviction scan last passed it. */
interface Entry {
  readonly statement: Statement;
  used: boolean;
}

/** A connection's kept statements, and what a close must wait for. */
interface Kept {
  /** In the order they were kept, or last given a second chance. */
  readonly statements: Map<string, Entry>;
  /** Prepares and runs under way. */
  busy: number;
  /**
   * Statements to finalize once nothing runs. node-sqlite3 finalizes on the
   * event loop's thread, and `sqlite3_finalize` takes the connection's
   * mutex: finalizing while another statement runs would block the whole
   * process until that one ends, however slow (a read past its deadline
   * waiting for its interrupt, say).
   */
  readonly unfinalized: Set<Statement>;
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
  const entry = state.closing ? undefined : state.statements.get(sql);
  state.busy++;
  if (!entry) return prepareAndRun(connection, state, sql, use).finally(() => done(state));
  // marked, not moved: eviction gives a used statement a second chance (keep), so a hit changes no Map
  entry.used = true;
  // the run itself marks it done: one promise, not a second for a finally (this runs for every read)
  return run(state, sql, entry.statement, use, true);
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
      if (!keeping) void ran.then(() => finalize(state, statement), () => undefined);
      ran.then(resolve, reject);
    });
  });
}

/** Runs `statement`; `finishes`: its end is the end of the use that counted it busy. */
function run<T>(state: Kept, sql: string, statement: Statement, use: Use<T>, finishes = false): Promise<T> {
  return new Promise((resolve, reject) => {
    const settle = (error: Error | null, result: T) => {
      if (error) {
        if (state.statements.get(sql)?.statement === statement) state.statements.delete(sql);
        finalize(state, statement);
      }
      if (finishes) done(state);
      if (error) reject(error);
      else resolve(result);
    };
    try {
      use(statement, settle);
    } catch (error) {
      if (finishes) done(state);
      reject(error);
    }
  });
}

/**
 * Keeps a statement, evicting the oldest one not used since the scan last
 * passed it (the "second chance" approximation of least recently used):
 * used ones move to the back with their mark cleared. At most one pass over
 * the kept statements, and only when one more is kept than fits.
 */
function keep(state: Kept, sql: string, statement: Statement): void {
  const { statements } = state;
  statements.set(sql, { statement, used: false });
  for (let passed = 0; statements.size > MAX_STATEMENTS; passed++) {
    const [oldest, entry] = statements.entries().next().value as [string, Entry];
    statements.delete(oldest);
    // every one used since the last pass: the oldest goes after all
    if (entry.used && passed < MAX_STATEMENTS) {
      entry.used = false;
      statements.set(oldest, entry);
      continue;
    }
    finalize(state, entry.statement);
  }
}

/** Finalizes a statement no longer kept, now if nothing runs, else once nothing does. */
function finalize(state: Kept, statement: Statement): void {
  // a Set: two runs of one kept statement can both fail and both let it go
  state.unfinalized.add(statement);
  if (state.busy === 0 || state.unfinalized.size > MAX_UNFINALIZED) finalizeWaiting(state);
}

function finalizeWaiting(state: Kept): void {
  const statements = [...state.unfinalized];
  state.unfinalized.clear();
  for (const statement of statements) statement.finalize(ignore);
}

const ignore = () => undefined;

function done(state: Kept): void {
  state.busy--;
  if (state.busy > 0) return;
  finalizeWaiting(state);
  state.closing?.();
}

function stateOf(connection: PreparingConnection): Kept {
  let state = kept.get(connection);
  if (state) return state;
  state = { statements: new Map(), busy: 0, unfinalized: new Set() };
  kept.set(connection, state);
  finalizeBeforeClose(connection, state);
  return state;
}

/** The connection's close, once its statements under way are over and the ones it kept finalized. */
function finalizeBeforeClose(connection: PreparingConnection, state: Kept): void {
  const close = connection.close.bind(connection);
  connection.close = (callback) => {
    if (state.closing) return close(callback);
    let closed = false;
    state.closing = () => {
      if (closed) return;
      closed = true;
      for (const { statement } of state.statements.values()) state.unfinalized.add(statement);
      state.statements.clear();
      finalizeWaiting(state);
      close(callback);
    };
    if (state.busy === 0) state.closing();
    return connection;
  };
}

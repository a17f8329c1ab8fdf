import type { Sequelize } from 'sequelize';
import { currentDeadline, MuralError, readsOwnWrites, type Deadline } from '../../core/index.ts';

type Row = Record<string, unknown>;

/** Runs several SELECTs as one round trip and answers each one's rows, in order. */
export type RunMany<S = string> = (statements: readonly S[]) => Promise<Row[][]>;
/** Runs one SELECT the usual way: the fallback when a batch fails. */
export type RunOne<S = string> = (statement: S) => Promise<Row[]>;

interface Pending<S> {
  /** The SQL, or what the runners make it from. */
  readonly statement: S;
  resolve(rows: Row[]): void;
  reject(error: unknown): void;
}

interface Batch<S> {
  readonly statements: Pending<S>[];
}

/**
 * Most statements in a batch: a bound on the string sent, and on what one
 * failure sends back through the one-by-one fallback.
 */
const MAX_STATEMENTS = 16;

/** What batching keeps per Sequelize instance. */
interface State {
  /** Open batches by deadline, then by lane (`readsOwnWrites()` and the caller's lane). */
  readonly open: Map<Deadline | undefined, Map<string, Batch<unknown>>>;
  /** Sends under way (batches or single statements), by deadline; a deadline with none is not listed. */
  readonly sendingBy: Map<Deadline | undefined, number>;
}

const states = new WeakMap<Sequelize, State>();
const settled = Promise.resolve();

/**
 * Collects the SELECTs a request starts together (the page and its count,
 * sibling sideloads) while other requests are reading, and sends them as
 * one: to PostgreSQL as one multi-statement query on one connection (one
 * round trip, one socket write and one pool checkout instead of one each),
 * to SQLite as one statement (one trip through libuv's pool). That is what a
 * busy server runs short of. The database runs a batch's statements one after
 * another, and a batch waits for its company, so while no other request is
 * reading, each statement goes out at once on a connection of its own, which
 * answers a lone request sooner. A simple-protocol query with several
 * statements runs them in one implicit transaction, so a batched page and
 * its count see one snapshot.
 *
 * Statements join a batch only with others under the same request deadline
 * (so a cancel on expiry cancels only statements that are out of time
 * anyway), the same `readsOwnWrites()` (so they belong on the same server
 * when reads go to replicas) and the same `lane`, the caller's word for
 * statements one query can carry (one set of type parsers). The batch is sent once the microtasks running
 * now have settled, which is when every read a request starts at once has
 * been issued. If it fails with anything but Mural's own errors (a timeout, a
 * cancel), each statement is run again alone, so each caller gets its own
 * answer or error.
 *
 * `S` is what the runners take for a statement: its SQL (PostgreSQL), or
 * its SQL and result columns (SQLite, whose batches are one statement).
 */
export function batchedSelect<S>(sequelize: Sequelize, statement: S, runMany: RunMany<S>, runOne: RunOne<S>, lane = ''): Promise<Row[]> {
  const state = stateOf(sequelize);
  const deadline = currentDeadline();
  const key = `${readsOwnWrites()}:${lane}`;
  let batch = state.open.get(deadline)?.get(key) as Batch<S> | undefined;
  if (!batch) {
    if (!othersReading(state, deadline)) return counted(state, deadline, () => runOne(statement));
    batch = openBatch(state, deadline, key, runMany, runOne);
  }
  const joining = batch;
  const rows = new Promise<Row[]>((resolve, reject) => joining.statements.push({ statement, resolve, reject }));
  if (joining.statements.length >= MAX_STATEMENTS) close(state, deadline, key, joining);
  return rows;
}

function stateOf(sequelize: Sequelize): State {
  let state = states.get(sequelize);
  if (!state) states.set(sequelize, (state = { open: new Map(), sendingBy: new Map() }));
  return state;
}

/** Whether statements of another request (deadline) are under way. */
function othersReading(state: State, deadline: Deadline | undefined): boolean {
  return state.sendingBy.size > (state.sendingBy.has(deadline) ? 1 : 0);
}

function openBatch<S>(state: State, deadline: Deadline | undefined, key: string, runMany: RunMany<S>, runOne: RunOne<S>): Batch<S> {
  const batch: Batch<S> = { statements: [] };
  const byKey = state.open.get(deadline) ?? new Map<string, Batch<unknown>>();
  state.open.set(deadline, byKey.set(key, batch as Batch<unknown>));
  // after every microtask under way, as DataLoader does: the sibling reads of this tick join first
  void settled.then(() =>
    process.nextTick(() => {
      close(state, deadline, key, batch);
      void counted(state, deadline, () => send(batch.statements, runMany, runOne));
    }),
  );
  return batch;
}

/** No more statements join `batch`; a later one opens the next. */
function close<S>(state: State, deadline: Deadline | undefined, key: string, batch: Batch<S>): void {
  const byKey = state.open.get(deadline);
  if (byKey?.get(key) !== (batch as Batch<unknown>)) return;
  byKey.delete(key);
  if (byKey.size === 0) state.open.delete(deadline);
}

/** Counts a send while it runs, so that statements arriving meanwhile know other requests are reading. */
function counted<T>(state: State, deadline: Deadline | undefined, run: () => Promise<T>): Promise<T> {
  state.sendingBy.set(deadline, (state.sendingBy.get(deadline) ?? 0) + 1);
  const over = () => {
    const left = state.sendingBy.get(deadline)! - 1;
    if (left === 0) state.sendingBy.delete(deadline);
    else state.sendingBy.set(deadline, left);
  };
  let running: Promise<T>;
  try {
    running = run();
  } catch (error) {
    running = Promise.reject(error);
  }
  // one promise, not an async function's two: this runs for every read
  return running.then(
    (value) => {
      over();
      return value;
    },
    (error: unknown) => {
      over();
      throw error;
    },
  );
}

async function send<S>(statements: Pending<S>[], runMany: RunMany<S>, runOne: RunOne<S>): Promise<void> {
  if (statements.length === 1) {
    const [only] = statements;
    return runOne(only!.statement).then(only!.resolve, only!.reject);
  }
  let results: Row[][];
  try {
    results = await runMany(statements.map((s) => s.statement));
  } catch (error) {
    if (error instanceof MuralError) statements.forEach((s) => s.reject(error));
    else await Promise.all(statements.map((s) => runOne(s.statement).then(s.resolve, s.reject)));
    return;
  }
  statements.forEach((s, i) => s.resolve(results[i]!));
}

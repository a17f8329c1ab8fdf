import type { Sequelize } from 'sequelize';
import { currentDeadline, MuralError, readsOwnWrites, type Deadline } from '../../core/index.ts';

type Row = Record<string, unknown>;

/** Runs several SELECTs as one round trip and answers each one's rows, in order. */
export type RunMany = (statements: readonly string[]) => Promise<Row[][]>;
/** Runs one SELECT the usual way: the fallback when a batch fails. */
export type RunOne = (sql: string) => Promise<Row[]>;

interface Pending {
  readonly sql: string;
  resolve(rows: Row[]): void;
  reject(error: unknown): void;
}

interface Batch {
  readonly statements: Pending[];
}

/**
 * Most statements in a batch: a bound on the string sent, and on what one
 * failure sends back through the one-by-one fallback.
 */
const MAX_STATEMENTS = 16;

/** What batching keeps per Sequelize instance. */
interface State {
  /** Open batches by deadline, then by lane (`readsOwnWrites()` and the caller's lane). */
  readonly open: Map<Deadline | undefined, Map<string, Batch>>;
  /** Sends under way (batches or single statements), by deadline; a deadline with none is not listed. */
  readonly sendingBy: Map<Deadline | undefined, number>;
}

const states = new WeakMap<Sequelize, State>();
const settled = Promise.resolve();

/**
 * Collects the SELECTs a request starts together (the page and its count,
 * sibling sideloads) while other requests are reading, and sends them to
 * PostgreSQL as one multi-statement query on one connection: one round trip,
 * one socket write and one pool checkout instead of one each. That is what a
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
 */
export function batchedSelect(sequelize: Sequelize, sql: string, runMany: RunMany, runOne: RunOne, lane = ''): Promise<Row[]> {
  const state = stateOf(sequelize);
  const deadline = currentDeadline();
  const key = `${readsOwnWrites()}:${lane}`;
  let batch = state.open.get(deadline)?.get(key);
  if (!batch) {
    if (!othersReading(state, deadline)) return counted(state, deadline, () => runOne(sql));
    batch = openBatch(state, deadline, key, runMany, runOne);
  }
  const joining = batch;
  const rows = new Promise<Row[]>((resolve, reject) => joining.statements.push({ sql, resolve, reject }));
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

function openBatch(state: State, deadline: Deadline | undefined, key: string, runMany: RunMany, runOne: RunOne): Batch {
  const batch: Batch = { statements: [] };
  const byKey = state.open.get(deadline) ?? new Map<string, Batch>();
  state.open.set(deadline, byKey.set(key, batch));
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
function close(state: State, deadline: Deadline | undefined, key: string, batch: Batch): void {
  const byKey = state.open.get(deadline);
  if (byKey?.get(key) !== batch) return;
  byKey.delete(key);
  if (byKey.size === 0) state.open.delete(deadline);
}

/** Counts a send while it runs, so that statements arriving meanwhile know other requests are reading. */
async function counted<T>(state: State, deadline: Deadline | undefined, run: () => Promise<T>): Promise<T> {
  state.sendingBy.set(deadline, (state.sendingBy.get(deadline) ?? 0) + 1);
  try {
    return await run();
  } finally {
    const left = state.sendingBy.get(deadline)! - 1;
    if (left === 0) state.sendingBy.delete(deadline);
    else state.sendingBy.set(deadline, left);
  }
}

async function send(statements: Pending[], runMany: RunMany, runOne: RunOne): Promise<void> {
  if (statements.length === 1) {
    const [only] = statements;
    return runOne(only!.sql).then(only!.resolve, only!.reject);
  }
  let results: Row[][];
  try {
    results = await runMany(statements.map((s) => s.sql));
  } catch (error) {
    if (error instanceof MuralError) statements.forEach((s) => s.reject(error));
    else await Promise.all(statements.map((s) => runOne(s.sql).then(s.resolve, s.reject)));
    return;
  }
  statements.forEach((s, i) => s.resolve(results[i]!));
}

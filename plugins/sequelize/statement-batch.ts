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

/** Open batches by Sequelize instance, then by what must be the same for every statement of one. */
const open = new WeakMap<Sequelize, Map<Deadline | undefined, Map<boolean, Batch>>>();
const settled = Promise.resolve();

/**
 * Collects the SELECTs a request starts together (the page and its count,
 * sibling sideloads) and sends them to PostgreSQL as one multi-statement
 * query on one connection: one round trip, one socket write and one pool
 * checkout instead of one each. A simple-protocol query with several
 * statements runs them in one implicit transaction, so the page and its
 * count also see the same snapshot.
 *
 * Statements join a batch only with others under the same request deadline
 * (so a cancel on expiry cancels only statements that are out of time
 * anyway) and the same `readsOwnWrites()` (so they belong on the same
 * server when reads go to replicas). The batch is sent once the microtasks
 * running now have settled, which is when every read a request starts at
 * once has been issued; a statement alone is sent as before. If the batch
 * fails with anything but Mural's own errors (a timeout, a cancel), each
 * statement is run again alone, so each caller gets its own answer or error.
 */
export function batchedSelect(sequelize: Sequelize, sql: string, runMany: RunMany, runOne: RunOne): Promise<Row[]> {
  const byDeadline = open.get(sequelize) ?? new Map<Deadline | undefined, Map<boolean, Batch>>();
  open.set(sequelize, byDeadline);
  const deadline = currentDeadline();
  const byOwnWrites = byDeadline.get(deadline) ?? new Map<boolean, Batch>();
  byDeadline.set(deadline, byOwnWrites);
  const ownWrites = readsOwnWrites();
  let batch = byOwnWrites.get(ownWrites);
  if (!batch) {
    const started: Batch = { statements: [] };
    batch = started;
    byOwnWrites.set(ownWrites, started);
    // after every microtask under way, as DataLoader does: the sibling reads of this tick join first
    void settled.then(() =>
      process.nextTick(() => {
        close(byDeadline, deadline, byOwnWrites, ownWrites, started);
        void send(started.statements, runMany, runOne);
      }),
    );
  }
  const joining = batch;
  const rows = new Promise<Row[]>((resolve, reject) => joining.statements.push({ sql, resolve, reject }));
  if (joining.statements.length >= MAX_STATEMENTS) close(byDeadline, deadline, byOwnWrites, ownWrites, joining);
  return rows;
}

/** No more statements join `batch`; a later one opens the next. */
function close(byDeadline: Map<Deadline | undefined, Map<boolean, Batch>>, deadline: Deadline | undefined, byOwnWrites: Map<boolean, Batch>, ownWrites: boolean, batch: Batch): void {
  if (byOwnWrites.get(ownWrites) !== batch) return;
  byOwnWrites.delete(ownWrites);
  if (byOwnWrites.size === 0) byDeadline.delete(deadline);
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
    else statements.forEach((s) => runOne(s.sql).then(s.resolve, s.reject));
    return;
  }
  statements.forEach((s, i) => s.resolve(results[i]!));
}

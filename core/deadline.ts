import { currentScope, runInScope } from './async-scope.ts';
import { muralConfig } from './config.ts';

/** When the database work of the current request must be over. */
export interface Deadline {
  /** The time limit it was set with, in milliseconds. */
  readonly timeout: number;
  /** `Date.now()` value at which it expires. */
  readonly at: number;
}

/**
 * The deadline of the code running now, or undefined when its database work
 * has no time limit. Core only holds it; adapters enforce it (the Sequelize
 * adapter cancels the running statement in the database).
 */
export function currentDeadline(): Deadline | undefined {
  return currentScope()?.deadline as Deadline | undefined;
}

/** Milliseconds left before `deadline`, never below zero. */
export function timeLeft(deadline: Deadline): number {
  return Math.max(0, deadline.at - Date.now());
}

/** How `withDeadline` limits the database time of the work it runs. */
export interface DeadlineOptions {
  /** Milliseconds; default `muralConfig.databaseTimeout`. Zero or Infinity: no limit. */
  timeout?: number;
  /** Start a new deadline even inside an existing one. */
  fresh?: boolean;
}

/**
 * Runs `fn` under a database time limit. Inside an existing deadline it keeps
 * that one, so a request's reads, writes and sideloads share one budget
 * rather than each getting a full one.
 */
export function withDeadline<R>(fn: () => R, options: DeadlineOptions = {}): R {
  if (currentDeadline() && !options.fresh) return fn();
  const timeout = options.timeout ?? muralConfig.databaseTimeout;
  const limited = timeout > 0 && Number.isFinite(timeout);
  const deadline: Deadline | undefined = limited ? { timeout, at: Date.now() + timeout } : undefined;
  return runInScope({ deadline }, fn);
}

/**
 * The statement an adapter is running under the current deadline, as it
 * recorded it with `withStatement`: what lets the adapter find its own
 * bookkeeping again in code it does not call directly (a driver asking for a
 * connection). Core only carries it.
 */
export function currentStatement(): object | undefined {
  return currentScope()?.statement;
}

/** Runs `fn` with `statement` as the current statement (see `currentStatement`). */
export function withStatement<R>(statement: object, fn: () => R): R {
  return runInScope({ statement }, fn);
}

import { currentScope, runInScope } from '../async-scope.ts';
import { subscribe } from 'node:diagnostics_channel';
import { DATABASE_CHANNEL, type DatabaseEvent } from './database-events.ts';

/** Events one log keeps: a bound on what a request with thousands of operations holds. */
export const MAX_LOGGED_EVENTS = 1000;

let listening = false;

/**
 * Runs `fn`, appending to `log` the database events its operations publish
 * (those started in its async context), up to MAX_LOGGED_EVENTS: what a
 * `Server-Timing` header reports. The first call subscribes to the channel
 * for good, so from then on every operation is timed, logged or not.
 */
export function withDatabaseLog<R>(log: DatabaseEvent[], fn: () => R): R {
  if (!listening) {
    listening = true;
    subscribe(DATABASE_CHANNEL, (message) => {
      const logged = currentScope()?.databaseLog as DatabaseEvent[] | undefined;
      if (logged && logged.length < MAX_LOGGED_EVENTS) logged.push(message as DatabaseEvent);
    });
  }
  return runInScope({ databaseLog: log }, fn);
}

import { performance } from 'node:perf_hooks';
import type { Adapter } from '../adapter/adapter.ts';
import { databaseChannel, DATABASE_OPERATIONS, type DatabaseEvent, type DatabaseOperation } from './database-events.ts';

type Operation = (...args: unknown[]) => Promise<unknown>;

/**
 * Times each database operation of `adapter` (an instance Mural created for
 * one Resource class) and publishes it on the `mural:database` channel while
 * something subscribes to it; while nothing does, an operation costs one
 * property check more. The operations become own properties of the instance
 * that call its class's method at each call, on the instance itself: private
 * fields keep working, and a method patched on the class later is the one
 * that runs.
 */
export function observedAdapter<A extends Adapter>(adapter: A, resource: string): A {
  const members = adapter as unknown as Record<string, unknown>;
  for (const operation of DATABASE_OPERATIONS) {
    if (typeof members[operation] !== 'function') continue;
    // one the constructor assigned to the instance, or else the class's, looked up at each call
    const own = Object.hasOwn(adapter, operation) ? (members[operation] as Operation) : undefined;
    const current = () => own ?? (Reflect.get(Object.getPrototypeOf(adapter) as object, operation, adapter) as Operation);
    Object.defineProperty(adapter, operation, { value: timed(adapter, current, resource, operation), writable: true, configurable: true });
  }
  return adapter;
}

function timed(adapter: Adapter, current: () => Operation, resource: string, operation: DatabaseOperation): Operation {
  return (...args) => {
    if (!databaseChannel.hasSubscribers) return current().apply(adapter, args);
    const started = performance.now();
    const settled = (fields: Partial<DatabaseEvent>) => {
      if (!databaseChannel.hasSubscribers) return;
      const event: DatabaseEvent = { resource, operation, duration: performance.now() - started, ...fields };
      databaseChannel.publish(event);
    };
    let running: Promise<unknown>;
    try {
      running = current().apply(adapter, args);
    } catch (error) {
      settled({ error });
      throw error;
    }
    return running.then(
      (result) => {
        settled(operation === 'resolve' && Array.isArray(result) ? { records: result.length } : {});
        return result;
      },
      (error: unknown) => {
        settled({ error });
        throw error;
      },
    );
  };
}

import { performance } from 'node:perf_hooks';
import type { Adapter } from '../adapter/adapter.ts';
import { databaseChannel, DATABASE_OPERATIONS, type DatabaseEvent, type DatabaseOperation } from './database-events.ts';

type Operation = (...args: unknown[]) => Promise<unknown>;

/**
 * `adapter` with each of its database operations timed and published on
 * the `mural:database` channel while something subscribes to it; while
 * nothing does, an operation costs one property check more. Every other
 * member is the adapter's own, called on the adapter itself (private
 * fields keep working), and `instanceof` and `constructor` still see its
 * class.
 */
export function observedAdapter<A extends Adapter>(adapter: A, resource: string): A {
  const observed = Object.create(adapter) as A;
  for (const name of accessorNames(adapter)) {
    Object.defineProperty(observed, name, { get: () => (adapter as unknown as Record<string, unknown>)[name], configurable: true });
  }
  for (const name of methodNames(adapter)) {
    const method = (adapter as unknown as Record<string, Operation>)[name]!;
    const operation = DATABASE_OPERATIONS.find((o) => o === name);
    Object.defineProperty(observed, name, {
      value: operation ? timed(adapter, method, resource, operation) : method.bind(adapter),
      writable: true,
      configurable: true,
    });
  }
  return observed;
}

function timed(adapter: Adapter, method: Operation, resource: string, operation: DatabaseOperation): Operation {
  return (...args) => {
    if (!databaseChannel.hasSubscribers) return method.apply(adapter, args);
    const started = performance.now();
    const settled = (fields: Partial<DatabaseEvent>) => {
      if (!databaseChannel.hasSubscribers) return;
      const event: DatabaseEvent = { resource, operation, duration: performance.now() - started, ...fields };
      databaseChannel.publish(event);
    };
    let running: Promise<unknown>;
    try {
      running = method.apply(adapter, args);
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

/** The adapter's methods, its class's and inherited ones, but not Object's. */
function methodNames(adapter: object): string[] {
  const names = new Set(prototypeMembers(adapter, (d) => typeof d.value === 'function'));
  for (const name of Object.keys(adapter)) if (typeof (adapter as Record<string, unknown>)[name] === 'function') names.add(name);
  return [...names];
}

/** Getters of the adapter's classes: read on the adapter itself, whose private fields they may use. */
function accessorNames(adapter: object): string[] {
  return [...new Set(prototypeMembers(adapter, (d) => d.get !== undefined))];
}

function prototypeMembers(adapter: object, wanted: (descriptor: PropertyDescriptor) => boolean): string[] {
  const names: string[] = [];
  for (let proto = Object.getPrototypeOf(adapter) as object | null; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto) as object | null) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      if (name !== 'constructor' && wanted(Object.getOwnPropertyDescriptor(proto, name)!)) names.push(name);
    }
  }
  return names;
}

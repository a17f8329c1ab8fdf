import test from 'ava';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { observedAdapter } from '../../../core/diagnostics/observed-adapter.ts';
import { DATABASE_CHANNEL, type DatabaseEvent } from '../../../core/index.ts';
import type { Adapter } from '../../../core/adapter/adapter.ts';

/**
 * An adapter seen through `observedAdapter`: the same adapter to everything
 * that uses it, with its database operations published on mural:database
 * while something subscribes.
 */

class CountingAdapter {
  #rows: unknown[] = [{ id: 1 }, { id: 2 }];
  calls = 0;
  get rows(): unknown[] {
    return this.#rows;
  }
  baseScope(): string {
    this.calls++;
    return 'scope';
  }
  resolve(): Promise<unknown[]> {
    return Promise.resolve(this.#rows);
  }
  count(): Promise<number> {
    return Promise.reject(new Error('the database went away'));
  }
  find(): Promise<unknown> {
    throw new TypeError('thrown before any promise');
  }
}

/** Each test observes a Resource type of its own: ava runs a file's tests at once, and the channel is the process's. */
function observed(resource: string) {
  const adapter = new CountingAdapter();
  return { adapter, seen: observedAdapter(adapter as unknown as Adapter, resource) as unknown as CountingAdapter };
}

async function collected(resource: string, run: () => Promise<unknown>): Promise<DatabaseEvent[]> {
  const events: DatabaseEvent[] = [];
  const listener = (message: unknown) => void ((message as DatabaseEvent).resource === resource && events.push(message as DatabaseEvent));
  subscribe(DATABASE_CHANNEL, listener);
  try {
    await run();
  } finally {
    unsubscribe(DATABASE_CHANNEL, listener);
  }
  return events;
}

test('the adapter stays itself: its private fields, getters, state and class; a method patched on its class later is the one that runs', async (t) => {
  const { adapter, seen } = observed('members');
  t.is(seen, adapter);
  t.deepEqual(await seen.resolve(), [{ id: 1 }, { id: 2 }], 'a timed operation reading a private field runs on the adapter');
  t.is(seen.rows, adapter.rows);
  t.is(seen.baseScope(), 'scope');
  t.is(adapter.calls, 1);
  t.true(seen instanceof CountingAdapter);
  class Patched extends CountingAdapter {}
  const patched = observedAdapter(new Patched() as unknown as Adapter, 'patched') as unknown as Patched;
  Patched.prototype.resolve = () => Promise.resolve(['patched']);
  t.deepEqual(await patched.resolve(), ['patched']);
});

test('while something subscribes, each operation is published when it settles: what, for which Resource, how long, how many records', async (t) => {
  const { seen } = observed('books');
  const events = await collected('books', async () => {
    await seen.resolve();
    seen.baseScope();
  });
  t.is(events.length, 1, 'baseScope reaches no database');
  const [event] = events;
  t.like(event, { resource: 'books', operation: 'resolve', records: 2 });
  t.true(event!.duration >= 0 && event!.duration < 1000);
  t.false('error' in event!);
});

test('a failed operation is published with its error, and the caller still gets the error', async (t) => {
  const { seen } = observed('failures');
  const events = await collected('failures', async () => {
    await t.throwsAsync(() => seen.count(), { message: 'the database went away' });
    t.throws(() => seen.find(), { instanceOf: TypeError });
  });
  t.deepEqual(events.map((e) => [e.operation, (e.error as Error).message]), [
    ['count', 'the database went away'],
    ['find', 'thrown before any promise'],
  ]);
});

test('nothing is published while no one subscribes, and a subscriber added later is heard', async (t) => {
  const { seen } = observed('latecomers');
  const events: unknown[] = [];
  await seen.resolve();
  const listener = (message: unknown) => void ((message as DatabaseEvent).resource === 'latecomers' && events.push(message));
  subscribe(DATABASE_CHANNEL, listener);
  await seen.resolve();
  unsubscribe(DATABASE_CHANNEL, listener);
  await seen.resolve();
  t.is(events.length, 1);
});

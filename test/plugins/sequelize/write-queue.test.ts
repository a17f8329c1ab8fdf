import test from 'ava';
import { ServiceUnavailable } from '../../../core/index.ts';
import { WriteQueue, type WriteQueueLimits } from '../../../plugins/sequelize/write-queue.ts';

/** A write that runs until the test lets it finish. */
function heldWrite(log: string[], name: string) {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  const write = async () => {
    log.push(`start ${name}`);
    await done;
    log.push(`end ${name}`);
    return name;
  };
  return { write, finish };
}

const limits = (overrides: Partial<WriteQueueLimits> = {}) => () => ({ timeout: 60_000, length: 100, retryAfter: 1, ...overrides });

test('writes run one at a time, in the order they arrived', async (t) => {
  const queue = new WriteQueue(limits());
  const log: string[] = [];
  const writes = ['a', 'b', 'c'].map((name) => heldWrite(log, name));
  const results = writes.map((w) => queue.run(w.write));
  await new Promise((resolve) => setImmediate(resolve));
  t.deepEqual(log, ['start a']);
  t.is(queue.length, 2);
  for (const w of writes) {
    w.finish();
    await new Promise((resolve) => setImmediate(resolve));
  }
  t.deepEqual(await Promise.all(results), ['a', 'b', 'c']);
  t.deepEqual(log, ['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
  t.is(queue.length, 0);
});

test('a failing write hands the turn on', async (t) => {
  const queue = new WriteQueue(limits());
  const failing = queue.run(async () => {
    throw new Error('boom');
  });
  const next = queue.run(async () => 'ran');
  await t.throwsAsync(failing, { message: 'boom' });
  t.is(await next, 'ran');
});

test('a write that waits past the timeout is refused with a 503 and never runs', async (t) => {
  const queue = new WriteQueue(limits({ timeout: 30, retryAfter: 7 }));
  const log: string[] = [];
  const holder = heldWrite(log, 'holder');
  const held = queue.run(holder.write);
  let ran = false;
  const error = await t.throwsAsync(queue.run(async () => void (ran = true)), { instanceOf: ServiceUnavailable });
  t.like(error, { status: 503, code: 'database_busy', retryAfter: 7 });
  t.deepEqual(error!.responseHeaders(), { 'Retry-After': '7' });
  t.regex(error!.message, /busy with other writes: this write waited 30 ms for its turn\. Nothing was written/);
  t.is(queue.length, 0);
  holder.finish();
  await held;
  t.false(ran);
  t.is(await queue.run(async () => 'later'), 'later');
});

test('a write beyond the queue length is refused at once', async (t) => {
  const queue = new WriteQueue(limits({ length: 1 }));
  const log: string[] = [];
  const holder = heldWrite(log, 'holder');
  const held = queue.run(holder.write);
  const waiting = queue.run(async () => 'waited');
  const error = await t.throwsAsync(queue.run(async () => 'refused'), { instanceOf: ServiceUnavailable });
  t.regex(error!.message, /the queue of 1 waiting writes is full/);
  holder.finish();
  await held;
  t.is(await waiting, 'waited');
});

test('with length 0 a write runs only when nothing else does', async (t) => {
  const queue = new WriteQueue(limits({ length: 0 }));
  const log: string[] = [];
  const holder = heldWrite(log, 'holder');
  const held = queue.run(holder.write);
  await t.throwsAsync(queue.run(async () => 'refused'), { instanceOf: ServiceUnavailable });
  holder.finish();
  await held;
  t.is(await queue.run(async () => 'alone'), 'alone');
});

import test from 'ava';
import { Limiter } from '../../../core/sideload/limiter.ts';

/** A task that finishes when told to, recording when it started. */
function gate(started: string[], name: string) {
  let open!: () => void;
  const done = new Promise<void>((resolve) => (open = resolve));
  return { task: () => (started.push(name), done.then(() => name)), open };
}

test('admits at most `limit` tasks at once; the next starts, in order, as one finishes', async (t) => {
  const limiter = new Limiter(2);
  const started: string[] = [];
  const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((name) => gate(started, name));
  const results = [a, b, c, d].map((g) => limiter.run(g!.task));
  await Promise.resolve();
  t.deepEqual(started, ['a', 'b']);
  b!.open();
  await results[1];
  await new Promise((resolve) => setImmediate(resolve));
  t.deepEqual(started, ['a', 'b', 'c']);
  a!.open();
  c!.open();
  d!.open();
  t.deepEqual(await Promise.all(results), ['a', 'b', 'c', 'd']);
});

test('a task that throws, at once or later, rejects its caller and frees its place', async (t) => {
  const limiter = new Limiter(1);
  await t.throwsAsync(limiter.run(() => { throw new Error('at once'); }), { message: 'at once' });
  await t.throwsAsync(limiter.run(() => Promise.reject(new Error('later'))), { message: 'later' });
  t.is(await limiter.run(async () => 'still admitted'), 'still admitted');
});

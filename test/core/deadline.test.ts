import test from 'ava';
import { configure, currentDeadline, muralConfig, timeLeft, withDeadline } from '../../core/index.ts';

/** The request deadline core holds for adapters to enforce. */

test('outside any request there is no deadline', (t) => {
  t.is(currentDeadline(), undefined);
});

test('withDeadline sets one from databaseTimeout, seen across awaits', async (t) => {
  t.is(muralConfig.databaseTimeout, 10_000, 'default: 10 s');
  await withDeadline(async () => {
    const deadline = currentDeadline()!;
    t.is(deadline.timeout, 10_000);
    await new Promise((resolve) => setTimeout(resolve, 5));
    t.is(currentDeadline(), deadline);
    t.true(timeLeft(deadline) > 0 && timeLeft(deadline) <= 10_000);
  });
});

test('a nested withDeadline keeps the outer budget; fresh starts a new one', (t) => {
  withDeadline(() => {
    const outer = currentDeadline();
    withDeadline(() => t.is(currentDeadline(), outer), { timeout: 60_000 });
    withDeadline(() => t.is(currentDeadline()!.timeout, 60_000), { timeout: 60_000, fresh: true });
  }, { timeout: 500 });
});

test('a timeout of 0 or Infinity means no limit', (t) => {
  withDeadline(() => t.is(currentDeadline(), undefined), { timeout: 0 });
  withDeadline(() => t.is(currentDeadline(), undefined), { timeout: Infinity });
  withDeadline(() => withDeadline(() => t.is(currentDeadline(), undefined), { timeout: 0, fresh: true }), { timeout: 500 });
});

test.serial('configure changes the default for later requests', (t) => {
  configure({ databaseTimeout: 250 });
  try {
    withDeadline(() => t.is(currentDeadline()!.timeout, 250));
  } finally {
    configure({ databaseTimeout: 10_000 });
  }
});

import test from 'ava';
import { alternate, median, medianRatio } from '../../bench/measure.ts';

/**
 * The bench decides its targets from medians of per-round ratios, so that
 * one noisy round cannot pass or fail a target by itself.
 */
test('median of an odd and an even number of values', (t) => {
  t.is(median([3, 1, 2]), 2);
  t.is(median([4, 1, 3, 2]), 2.5);
});

test('medianRatio pairs each round with the same round of the other side', (t) => {
  // rounds 1 and 3 are slow for both sides; the per-round ratio stays 2
  t.is(medianRatio([2, 20, 4], [1, 10, 2]), 2);
});

test('one outlying round does not decide the ratio', (t) => {
  t.is(medianRatio([2, 2, 2, 2, 50], [1, 1, 1, 1, 1]), 2);
});

test('alternate runs every contender every round, each round starting one contender further on', async (t) => {
  const calls: string[] = [];
  const push = (name: string) => async () => void calls.push(name);
  const timing = await alternate({ a: push('a'), b: push('b'), c: push('c') }, 4, 2, 0);
  for (const name of ['a', 'b', 'c']) t.is(timing[name]!.rounds.length, 4);
  // after the warm-up (three calls each): abc, bca, cab, abc, two calls each
  const rounds = calls.slice(9).join('').match(/.{6}/g);
  t.deepEqual(rounds, ['aabbcc', 'bbccaa', 'ccaabb', 'aabbcc']);
});

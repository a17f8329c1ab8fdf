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

test('alternate runs every contender every round and reports each round', async (t) => {
  const calls: string[] = [];
  const timing = await alternate({ a: async () => void calls.push('a'), b: async () => void calls.push('b') }, 4, 2, 0);
  t.is(timing.a!.rounds.length, 4);
  t.is(timing.b!.rounds.length, 4);
  // after the warm-up (three calls each), the rounds alternate a, a, b, b
  t.deepEqual(calls.slice(6, 14), ['a', 'a', 'b', 'b', 'a', 'a', 'b', 'b']);
});

import test from 'ava';
import type { RelationshipDefinition } from '../../../core/resource/relationship-definition.ts';
import { choosePrefetch, EXPLORE_EVERY, MAX_EXPLORE_EVERY, timeLoad } from '../../../core/sideload/prefetch-choice.ts';

/**
 * `nestedPrefetch: 'auto'`'s choice, load by load, with the time each way
 * takes given: which loads prefetch. (The same choice against real
 * databases: nested-prefetch-auto.servers.test.ts.)
 */
function loads(relationship: object, count: number, msOf: (prefetched: boolean, load: number) => number, first = 1): number[] {
  const prefetching: number[] = [];
  for (let load = first; load < first + count; load++) {
    const prefetched = choosePrefetch(relationship as RelationshipDefinition, 'auto');
    if (prefetched) prefetching.push(load);
    timeLoad(relationship as RelationshipDefinition, prefetched, msOf(prefetched, load));
  }
  return prefetching;
}

test(`while prefetching stays clearly slower, its tries come ever rarer: every ${EXPLORE_EVERY}, then twice as far apart, up to ${MAX_EXPLORE_EVERY}`, (t) => {
  const relationship = {};
  t.deepEqual(loads(relationship, 400, (prefetched) => (prefetched ? 20 : 10)), [1, 3, 5, 16, 48, 112, 240, 368]);
});

test('a try that is not clearly slower brings the tries back to every 16 loads, and a way that became faster takes over', (t) => {
  const relationship = {};
  loads(relationship, 400, (prefetched) => (prefetched ? 20 : 10));
  // from load 401 the prefetch is the faster way: tries every 16 loads until five of its nine recent times say so
  const after = loads(relationship, 300, (prefetched) => (prefetched ? 5 : 10), 401);
  t.deepEqual(after.slice(0, 5), [496, 512, 528, 544, 560]);
  const notPrefetched = Array.from({ length: 700 - 560 }, (_, i) => 561 + i).filter((load) => !after.includes(load));
  t.deepEqual(notPrefetched, [576, 608, 672], 'from then on it prefetches, trying the other way ever more rarely');
});

test('a way only slightly slower keeps being tried every 16 loads, so a change shows soon', (t) => {
  const relationship = {};
  const tries = loads(relationship, 200, (prefetched) => (prefetched ? 10.5 : 10)).slice(3);
  t.deepEqual(tries, [16, 32, 48, 64, 80, 96, 112, 128, 144, 160, 176, 192]);
});

import test from 'ava';
import { didYouMean, editDistance, nearestName } from '../../core/did-you-mean.ts';

test('edit distance counts inserts, deletes, substitutions and swapped neighbours, ignoring case', (t) => {
  t.is(editDistance('nme', 'name'), 1);
  t.is(editDistance('nmae', 'name'), 1, 'a swap is one edit');
  t.is(editDistance('Name', 'name'), 0);
  t.is(editDistance('', 'abc'), 3);
  t.is(editDistance('kitten', 'sitting'), 3);
});

test('the nearest name: an alias, a prefix, or within a third of the length in edits', (t) => {
  const filters = ['id', 'first_name', 'last_name', 'age', 'name'];
  t.is(nearestName('nme', filters), 'name');
  t.is(nearestName('first', filters), 'first_name', 'the one name it begins');
  t.is(nearestName('AGE', filters), 'age');
  t.is(nearestName('height', filters), undefined, 'nothing close: no guess');
  t.is(nearestName('nam', ['nap', 'ham']), 'nap', 'ties go to the name listed first');
  t.is(nearestName('nam', ['ham', 'nap']), 'ham');
  t.is(nearestName('year', ['string', 'integer'], { year: 'integer' }), 'integer');
  t.is(nearestName('year', ['string'], { year: 'integer' }), undefined, 'an alias of a name not offered is no guess');
  t.is(nearestName('name', filters), undefined, 'a known name needs no correction');
  t.is(nearestName('toString', filters, {}), undefined, 'aliases are own keys only');
});

test('didYouMean reads as the start of a hint before the list of valid names', (t) => {
  t.is(didYouMean('aeg', ['age']), 'did you mean "age"? ');
  t.is(didYouMean('zzz', ['age']), '');
});

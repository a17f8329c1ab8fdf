import test from 'ava';
import { closestName, didYouMean, editDistance } from '../../../core/check/did-you-mean.ts';

test('a swap of two neighbouring letters is one edit, as a typist makes it', (t) => {
  t.is(editDistance('titel', 'title'), 1);
  t.is(editDistance('title', 'title'), 0);
  t.is(editDistance('age', 'agee'), 1);
  t.is(editDistance('', 'id'), 2);
  t.is(editDistance('kitten', 'sitting'), 3);
});

test('the closest valid name, when close enough to be the one meant, case aside', (t) => {
  t.is(closestName('titel', ['first_name', 'title', 'age']), 'title');
  t.is(closestName('Title', ['title']), 'title');
  t.is(closestName('nickname', ['first_name', 'title', 'age']), undefined, 'a far-off guess would mislead');
  t.is(closestName('id', ['ip', 'age']), 'ip');
  t.is(closestName('title', ['title']), undefined, 'the name itself is no suggestion');
});

test('didYouMean phrases it, or says nothing', (t) => {
  t.is(didYouMean('titel', ['title']), '; did you mean "title"?');
  t.is(didYouMean('nickname', ['title']), '');
});

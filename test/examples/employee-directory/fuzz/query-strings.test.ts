import test from 'ava';
import { configure } from '../../../../core/index.ts';
import { fuzzSuite } from './fuzz-suite.ts';
import { readRequest } from './query-arbitraries.ts';

/**
 * Generated GETs against the example app: every query parameter family built
 * from the app's real names, mixed with prototype keys, extreme numbers,
 * unicode, malformed percent-encoding, NUL and 100 kB values. Each answer must
 * be a clean JSON:API 2xx/4xx and the server must keep working.
 *
 * Nested to-one includes are read beside their parents wherever they can be
 * (on a local database `auto` would leave that off), so hostile reads go
 * through the prefetch and its fallbacks too; the other fuzz files keep `auto`.
 */
test.before(() => void configure({ nestedPrefetch: 'always' }));
fuzzSuite({ key: 'query_strings', seedOffset: 0, share: 0.6, requests: readRequest });

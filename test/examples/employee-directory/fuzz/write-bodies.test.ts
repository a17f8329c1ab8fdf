import { writeRequest } from './body-arbitraries.ts';
import { fuzzSuite } from './fuzz-suite.ts';

/**
 * Generated POST, PATCH and DELETE requests on every Resource: sideposted
 * graphs with temp-id cycles and duplicates, deep chains, wrong JSON types at
 * every level, prototype keys as names, types and ids, enormous strings.
 */
fuzzSuite({ key: 'write_bodies', seedOffset: 1000, share: 0.4, requests: writeRequest });

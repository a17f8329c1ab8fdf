import { fuzzSuite } from './fuzz-suite.ts';
import { guestLeak, misplacedError } from './invariants.ts';
import { operationsRequest, sentinelsOf, uniqueSentinels } from './operation-arbitraries.ts';

/**
 * Generated atomic operations documents (`POST /api/v1/operations`): every
 * answer a clean JSON:API 2xx/4xx whose errors point into the document, a
 * guest's answer naming nothing hidden from it, and every request all or
 * nothing: the departments it adds first and last are both saved when it
 * answers 200 and neither otherwise.
 */
fuzzSuite({
  key: 'operations',
  seedOffset: 2000,
  share: 0.2,
  requests: operationsRequest,
  prepare: uniqueSentinels,
  async invariant(dir, request, response) {
    const problem = misplacedError(request, response) ?? guestLeak(request, response);
    if (problem) return problem;
    const names = sentinelsOf(request);
    if (names.length === 0) return undefined;
    const saved = await dir.models.Department.count({ where: { name: names } });
    const expected = response.status === 200 ? names.length : 0;
    return saved === expected ? undefined : `answered ${response.status} yet ${saved} of its ${names.length} sentinel records were saved: a partial write`;
  },
});

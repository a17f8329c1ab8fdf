import { fuzzSuite } from './fuzz-suite.ts';
import { guestLeak, misplacedError } from './invariants.ts';
import { relationshipOf, relationshipRequest } from './relationship-arbitraries.ts';
import { isAdmin } from '../../../support/example-auth.ts';

/** Hidden from a guest; `notez`, no Resource's name, is as long. */
const HIDDEN = 'notes';
const UNKNOWN = 'notez';

/**
 * Generated requests to the relationship endpoints
 * (`{ns}/{type}/{id}/relationships/{name}` with every method, and the related
 * reads), as a guest and as an admin. Beyond a clean JSON:API 2xx/4xx: every
 * error points where the request has something, a guest's answer names
 * nothing guards hide from it, and a guest's request naming `notes` is
 * answered byte for byte as the same request naming `notez`: a hidden
 * relationship is an unknown one on every method, whatever the body, the id
 * or the query.
 */
fuzzSuite({
  key: 'relationship_endpoints',
  seedOffset: 3000,
  share: 0.12,
  requests: relationshipRequest,
  async invariant(_dir, request, response, send) {
    const problem = misplacedError(request, response) ?? guestLeak(request, response);
    if (problem) return problem;
    if (isAdmin(request.headers) || relationshipOf(request.path) !== HIDDEN) return undefined;
    // decided before any query, so the database's state between the two requests does not matter
    const twin = await send({ ...request, path: request.path.replace(/\/notes(?=\?|$)/, `/${UNKNOWN}`) });
    // the name as errors quote it (`No relationship "notes"`) and point at it; `notes` the type stays itself
    const seen = (r: typeof response, name: string) => `${r.status} ${r.text.replaceAll(`\\"${name}\\"`, '{name}').replaceAll(`/${name}"`, '/{name}"')}`;
    return seen(response, HIDDEN) === seen(twin, UNKNOWN) ? undefined : `answered ${seen(response, HIDDEN).slice(0, 300)}, where ${UNKNOWN} answers ${seen(twin, UNKNOWN).slice(0, 300)}`;
  },
});
